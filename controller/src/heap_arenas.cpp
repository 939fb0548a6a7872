#include "iomark/controller/heap_arenas.hpp"

#include <malloc.h>

namespace iomark::controller {

void limit_heap_arenas() noexcept { (void)::mallopt(M_ARENA_MAX, 2); }

}  // namespace iomark::controller
