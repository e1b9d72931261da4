import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { categoryKeys, categoryPath, http } from '@uplift/platform';
import type {
  EditStudioMaskResponseJson,
  GetStudioImagePreviewResponseJson,
  ImportStudioProductImageResponseJson,
  StudioBrushStrokeJson,
  UploadStudioImageResponseJson,
} from './types';
import { listStudioJobsQueryOptions } from './studio-jobs';
import { getStudioPlanQueryOptions } from './studio-plan';

/** The studio's upload limits (the server enforces them too). */
export const STUDIO_MAX_UPLOAD_BYTES = 25 * 1024 * 1024;
export const STUDIO_UPLOAD_TYPES = ['image/jpeg', 'image/png', 'image/webp'];

/** POST .../studio/images: stores a photo; a wrong type or size answers 400 with a message. */
export function uploadStudioImage(categoryId: string, filename: string, contentBase64: string): Promise<UploadStudioImageResponseJson> {
  return http.post<UploadStudioImageResponseJson>(categoryPath(categoryId, 'studio/images'), { filename, content: contentBase64 });
}

export function useUploadStudioImage() {
  return useMutation({
    mutationFn: ({ categoryId, filename, contentBase64 }: { categoryId: string; filename: string; contentBase64: string }) =>
      uploadStudioImage(categoryId, filename, contentBase64),
    // The page shows the server's message beside the picker.
    meta: { toast: false },
  });
}

/** GET .../studio/images/{imageId}/preview: the photo, reduced, for the before/after view. */
export function getStudioImagePreview(categoryId: string, imageId: string): Promise<GetStudioImagePreviewResponseJson> {
  return http.get<GetStudioImagePreviewResponseJson>(categoryPath(categoryId, `studio/images/${encodeURIComponent(imageId)}/preview`));
}

export function getStudioImagePreviewQueryOptions(categoryId: string, imageId: string) {
  return queryOptions({
    queryKey: categoryKeys.studioImagePreview(categoryId, imageId),
    queryFn: () => getStudioImagePreview(categoryId, imageId),
    staleTime: Infinity,
  });
}

export function useStudioImagePreview(categoryId: string | undefined, imageId: string | undefined) {
  return useQuery({ ...getStudioImagePreviewQueryOptions(categoryId ?? '', imageId ?? ''), enabled: Boolean(categoryId && imageId) });
}

/** POST .../studio/images/fromCatalogue: stores a catalogue product's main photo (read by the server). */
export function importStudioProductImage(categoryId: string, productId: string): Promise<ImportStudioProductImageResponseJson> {
  return http.post<ImportStudioProductImageResponseJson>(categoryPath(categoryId, 'studio/images/fromCatalogue'), { productId });
}

export function useImportStudioProductImage() {
  return useMutation({
    mutationFn: ({ categoryId, productId }: { categoryId: string; productId: string }) => importStudioProductImage(categoryId, productId),
    meta: { toast: false },
  });
}

/** POST .../studio/images/{imageId}/mask: applies keep/remove brush strokes and queues a new cut-out. */
export function editStudioMask(categoryId: string, imageId: string, strokes: StudioBrushStrokeJson[]): Promise<EditStudioMaskResponseJson> {
  return http.post<EditStudioMaskResponseJson>(categoryPath(categoryId, `studio/images/${encodeURIComponent(imageId)}/mask`), { strokes });
}

export function useEditStudioMask() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ categoryId, imageId, strokes }: { categoryId: string; imageId: string; strokes: StudioBrushStrokeJson[] }) =>
      editStudioMask(categoryId, imageId, strokes),
    meta: { toast: false },
    onSuccess: (_data, { categoryId }) =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: listStudioJobsQueryOptions(categoryId).queryKey }),
        queryClient.invalidateQueries({ queryKey: getStudioPlanQueryOptions(categoryId).queryKey }),
      ]),
  });
}
