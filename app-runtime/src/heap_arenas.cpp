#include "iomark/app_runtime/heap_arenas.hpp"

#include <malloc.h>

namespace iomark::app_runtime {

void limit_heap_arenas() noexcept { (void)::mallopt(M_ARENA_MAX, 2); }

}  // namespace iomark::app_runtime
