# Shared compile settings for every iomark target.
add_library(iomark_warnings INTERFACE)
target_compile_options(iomark_warnings INTERFACE
  -Wall -Wextra -Wpedantic -Wshadow -Wconversion -Wno-sign-conversion
  -Wnon-virtual-dtor -Wold-style-cast -Woverloaded-virtual -Wimplicit-fallthrough)
# GCC 12 at -O3 reports impossible overlaps inside libstdc++'s std::string operator+
# (GCC bug 105651); they drown real warnings in release builds.
if(CMAKE_CXX_COMPILER_ID STREQUAL "GNU" AND CMAKE_CXX_COMPILER_VERSION VERSION_LESS 13)
  target_compile_options(iomark_warnings INTERFACE -Wno-restrict)
endif()
# Under ThreadSanitizer GCC 12 warns (-Wtsan) at every std::atomic_thread_fence, which TSan
# (clang's as well) does not model; Boost.Asio has them in its handler dispatch. Asio hands
# handlers between threads under its scheduler's mutex, which TSan does see, so the warning
# says nothing about iomark and would bury real ones.
if(CMAKE_CXX_COMPILER_ID STREQUAL "GNU" AND CMAKE_CXX_FLAGS MATCHES "-fsanitize=thread")
  target_compile_options(iomark_warnings INTERFACE -Wno-tsan)
endif()
if(IOMARK_WARNINGS_AS_ERRORS)
  target_compile_options(iomark_warnings INTERFACE -Werror)
endif()

# iomark_library(NAME ALIAS SOURCES... DEPENDS...)
# One folder is one library: public headers under include/, sources under src/.
function(iomark_library name)
  cmake_parse_arguments(ARG "" "ALIAS" "SOURCES;DEPENDS" ${ARGN})
  add_library(${name} STATIC ${ARG_SOURCES})
  add_library(iomark::${ARG_ALIAS} ALIAS ${name})
  target_include_directories(${name} PUBLIC ${CMAKE_CURRENT_SOURCE_DIR}/include)
  target_link_libraries(${name} PUBLIC ${ARG_DEPENDS} PRIVATE iomark_warnings)
endfunction()

# iomark_test_paths(TARGET): tests/data and the corpus as paths from the test executable's
# folder (tests/support/test_paths.hpp), so the compile line does not name the checkout and a
# copy of the repository elsewhere hits ccache. The executable must stay in its own binary dir.
function(iomark_test_paths name)
  cmake_path(ABSOLUTE_PATH IOMARK_ICF_CORPUS_DIR BASE_DIRECTORY ${CMAKE_SOURCE_DIR} NORMALIZE OUTPUT_VARIABLE corpus)
  file(RELATIVE_PATH data_from_exe ${CMAKE_CURRENT_BINARY_DIR} ${CMAKE_SOURCE_DIR}/tests/data)
  file(RELATIVE_PATH corpus_from_exe ${CMAKE_CURRENT_BINARY_DIR} ${corpus})
  target_compile_definitions(${name} PRIVATE
    IOMARK_TEST_DATA_FROM_EXE="${data_from_exe}" IOMARK_ICF_CORPUS_FROM_EXE="${corpus_from_exe}")
  target_include_directories(${name} PRIVATE ${CMAKE_SOURCE_DIR}/tests/support)
endfunction()

# iomark_unit_test(NAME SOURCES... DEPENDS...)
function(iomark_unit_test name)
  cmake_parse_arguments(ARG "" "" "SOURCES;DEPENDS" ${ARGN})
  add_executable(${name} ${ARG_SOURCES})
  target_link_libraries(${name} PRIVATE ${ARG_DEPENDS} GTest::gtest GTest::gtest_main iomark_warnings)
  iomark_test_paths(${name})
  # Labelled with the executable, so a preset can pick whole test programs (ctest -L).
  gtest_discover_tests(${name} DISCOVERY_TIMEOUT 60 PROPERTIES TIMEOUT 300 LABELS ${name})
endfunction()
