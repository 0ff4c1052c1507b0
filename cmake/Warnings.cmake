# Compiler flags every gpudoctor target gets: warnings (as errors in CI), sanitizers on request.
add_library(gpudoctor_flags INTERFACE)
target_compile_options(gpudoctor_flags INTERFACE -Wall -Wextra -Wpedantic -Wshadow -Wnon-virtual-dtor)
if(GPUDOCTOR_WERROR)
  target_compile_options(gpudoctor_flags INTERFACE -Werror)
endif()
if(GPUDOCTOR_SANITIZE)
  target_compile_options(gpudoctor_flags INTERFACE -fsanitize=address,undefined -fno-omit-frame-pointer
                                                   -fno-sanitize-recover=undefined)
  target_link_options(gpudoctor_flags INTERFACE -fsanitize=address,undefined)
endif()
if(WIN32)
  # One self-contained .exe: no MinGW runtime DLLs to ship beside it.
  target_link_options(gpudoctor_flags INTERFACE -static -static-libgcc -static-libstdc++)
  target_compile_definitions(gpudoctor_flags INTERFACE WIN32_LEAN_AND_MEAN NOMINMAX _WIN32_WINNT=0x0A00 UNICODE _UNICODE)
endif()
if(CMAKE_CXX_COMPILER_ID STREQUAL "GNU" AND CMAKE_CXX_COMPILER_VERSION VERSION_LESS 13)
  # GCC 12 (native and mingw-w64) reports false positives from inside libstdc++
  # once optimizing, which break Release builds under -Werror: -Wrestrict in
  # std::string concatenation (GCC PR 105329, PR 105651) and -Wmaybe-uninitialized
  # on std::optional members (GCC PR 80635).
  target_compile_options(gpudoctor_flags INTERFACE -Wno-restrict -Wno-maybe-uninitialized)
endif()
