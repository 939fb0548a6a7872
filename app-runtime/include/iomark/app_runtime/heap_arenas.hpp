// Process-wide memory setting for a controller (CLI or GUI): call once at the start of main().
#pragma once

namespace iomark::app_runtime {

// Caps glibc's malloc arenas at two. Samples from every agent are decoded on the transport's
// threads and freed on the series thread; with one arena per thread the freed pages stay
// scattered and mapped. bench/controller-scale (64 agents x 16 workers) measured a peak RSS
// of 144 MiB with glibc's default and 34 MiB with two arenas, at the same CPU.
void limit_heap_arenas() noexcept;

}  // namespace iomark::app_runtime
