import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { categoryKeys, categoryPath, http } from '@uplift/platform';
import type { CreateStudioJobRequestJson, CreateStudioJobResponseJson, ListStudioJobsResponseJson, StudioJobJson } from './types';

/** While a studio job is queued or working, the gallery is refetched this often. */
export const STUDIO_JOB_POLL_MS = 1_000;

/** True while any job in the gallery still runs. */
export function hasRunningStudioJob(jobs: StudioJobJson[] | undefined): boolean {
  return (jobs ?? []).some((j) => j.status === 'queued' || j.status === 'working');
}

/** GET .../studio/jobs: the store's gallery, newest first. */
export function listStudioJobs(categoryId: string): Promise<ListStudioJobsResponseJson> {
  return http.get<ListStudioJobsResponseJson>(categoryPath(categoryId, 'studio/jobs'));
}

export function listStudioJobsQueryOptions(categoryId: string) {
  return queryOptions({
    queryKey: categoryKeys.studioJobs(categoryId),
    queryFn: () => listStudioJobs(categoryId),
    // Polls only while a job runs, so the progress bars move.
    refetchInterval: (query) => (hasRunningStudioJob(query.state.data?.jobs) ? STUDIO_JOB_POLL_MS : false),
  });
}

export function useStudioJobs(categoryId: string | undefined) {
  return useQuery({ ...listStudioJobsQueryOptions(categoryId ?? ''), enabled: Boolean(categoryId) });
}

export type CreateStudioJobBody = Omit<CreateStudioJobRequestJson, 'categoryId'>;

/** POST .../studio/jobs: queues a tool (cutout, studio or presets) on a photo. */
export function createStudioJob(categoryId: string, body: CreateStudioJobBody): Promise<CreateStudioJobResponseJson> {
  return http.post<CreateStudioJobResponseJson>(categoryPath(categoryId, 'studio/jobs'), body);
}

export function useCreateStudioJob() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ categoryId, body }: { categoryId: string; body: CreateStudioJobBody }) => createStudioJob(categoryId, body),
    // The page shows the refusal (the free plan's limit) with its upgrade prompt.
    meta: { toast: false },
    // A tool run counts against the free plan's month, so the plan is read again too.
    onSettled: (_data, _error, { categoryId }) =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: listStudioJobsQueryOptions(categoryId).queryKey }),
        queryClient.invalidateQueries({ queryKey: categoryKeys.studioPlan(categoryId) }),
      ]),
  });
}

/** DELETE .../studio/jobs/{jobId}: removes a job and its results from the gallery. */
export function deleteStudioJob(categoryId: string, jobId: string): Promise<unknown> {
  return http.delete(categoryPath(categoryId, `studio/jobs/${encodeURIComponent(jobId)}`));
}

export function useDeleteStudioJob() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ categoryId, jobId }: { categoryId: string; jobId: string }) => deleteStudioJob(categoryId, jobId),
    onSuccess: (_data, { categoryId }) =>
      queryClient.invalidateQueries({ queryKey: listStudioJobsQueryOptions(categoryId).queryKey }),
  });
}
