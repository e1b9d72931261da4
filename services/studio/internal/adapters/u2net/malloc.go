package u2net

// #include <malloc.h>
//
// // Runs when the binary is loaded, before Go's runtime starts a thread.
// __attribute__((constructor)) static void u2net_one_malloc_arena(void) {
// 	mallopt(M_ARENA_MAX, 1);
// }
import "C"

// The constructor above makes glibc's malloc keep one arena for the whole
// process instead of one per thread that allocates (up to eight a core),
// in every binary that links this package (the worker and its tests).
// ONNX Runtime's session runs on whichever OS thread Go's cgo call is on,
// and its intra-op threads allocate too, so what it frees stayed cached
// in several arenas. It must run before any thread has allocated (a
// thread keeps the arena it first took), so it is a constructor, not a
// call in Load (which is after the worker's database pool and bucket,
// and measured no better than without). The worker's peak on three 1024²
// cut-outs: services/studio/README.md, "The worker's memory". The model's
// large tensors come from its own arena, so one malloc arena is not
// contended: the CPU time is the same.
