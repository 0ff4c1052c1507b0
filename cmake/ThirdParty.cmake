# Header-only dependencies come from Debian packages. They are exposed through a
# folder of links that holds only them, so the mingw-w64 cross build can use the
# same headers without seeing the host's /usr/include.
set(GPUDOCTOR_THIRD_PARTY_INCLUDE "${CMAKE_BINARY_DIR}/third_party_include")
file(MAKE_DIRECTORY "${GPUDOCTOR_THIRD_PARTY_INCLUDE}")
foreach(dep CLI nlohmann toml++)
  if(NOT EXISTS "/usr/include/${dep}")
    message(FATAL_ERROR "Missing /usr/include/${dep}: run ./dev.sh deps (installs the Debian packages).")
  endif()
  file(CREATE_LINK "/usr/include/${dep}" "${GPUDOCTOR_THIRD_PARTY_INCLUDE}/${dep}" SYMBOLIC)
endforeach()

add_library(gpudoctor_third_party INTERFACE)
target_include_directories(gpudoctor_third_party SYSTEM INTERFACE "${GPUDOCTOR_THIRD_PARTY_INCLUDE}")
target_compile_definitions(gpudoctor_third_party INTERFACE TOML_HEADER_ONLY=1 TOML_EXCEPTIONS=0)
