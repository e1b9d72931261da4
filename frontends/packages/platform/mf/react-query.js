// What every app gets for `import … from '@tanstack/react-query'` in its
// bundle (see shared.js and react-router.js): only the names our code uses,
// so the rest of TanStack Query is left out of the shared chunk. Importing a
// name not listed here fails scripts/shared-facades.test.mjs: add it here.
export {
  MutationCache,
  QueryCache,
  QueryClient,
  QueryClientProvider,
  QueryObserver,
  infiniteQueryOptions,
  partialMatchKey,
  queryOptions,
  useInfiniteQuery,
  useMutation,
  useQuery,
  useQueryClient,
} from 'uplift-react-query-package';
