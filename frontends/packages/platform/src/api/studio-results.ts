import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { categoryKeys, categoryPath, http } from '@uplift/platform';
import type { DownloadStudioResultResponseJson, GetStudioResultPreviewResponseJson } from './types';

/** GET .../studio/results/{resultId}/preview: reduced; watermarked on the free plan. */
export function getStudioResultPreview(categoryId: string, resultId: string): Promise<GetStudioResultPreviewResponseJson> {
  return http.get<GetStudioResultPreviewResponseJson>(categoryPath(categoryId, `studio/results/${encodeURIComponent(resultId)}/preview`));
}

export function getStudioResultPreviewQueryOptions(categoryId: string, resultId: string) {
  return queryOptions({
    // Under the plan's key too: an upgrade refetches previews without the watermark.
    queryKey: categoryKeys.studioResultPreview(categoryId, resultId),
    queryFn: () => getStudioResultPreview(categoryId, resultId),
  });
}

export function useStudioResultPreview(categoryId: string | undefined, resultId: string | undefined) {
  return useQuery({ ...getStudioResultPreviewQueryOptions(categoryId ?? '', resultId ?? ''), enabled: Boolean(categoryId && resultId) });
}

/** POST .../studio/results/{resultId}/download: the full file; 429 past the free plan's allowance. */
export function downloadStudioResult(categoryId: string, resultId: string): Promise<DownloadStudioResultResponseJson> {
  return http.post<DownloadStudioResultResponseJson>(categoryPath(categoryId, `studio/results/${encodeURIComponent(resultId)}/download`), {});
}

export function useDownloadStudioResult() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ categoryId, resultId }: { categoryId: string; resultId: string }) => downloadStudioResult(categoryId, resultId),
    // The allowance left changed (or was found used up).
    onSettled: (_data, _error, { categoryId }) =>
      queryClient.invalidateQueries({ queryKey: categoryKeys.studioPlan(categoryId) }),
    meta: { toast: false },
  });
}

/** A data: URL for base64 content (the CSP allows data: images). */
export function dataUrl(contentType: string | undefined, base64: string | undefined): string | undefined {
  return base64 ? `data:${contentType || 'application/octet-stream'};base64,${base64}` : undefined;
}
