# Header-only dependencies come from Debian packages. They are exposed through a
# folder of links that holds only them, so the mingw-w64 cross build can use the
# same headers without seeing the host's /usr/include.
# GPUDOCTOR_THIRD_PARTY_DIR points elsewhere on machines without those packages (the GPU machine that
# bench/device/verify_on_device.sh builds on gets copies carried beside the sources).
set(GPUDOCTOR_THIRD_PARTY_DIR "/usr/include" CACHE PATH "Folder holding the CLI, nlohmann and toml++ headers")
set(GPUDOCTOR_THIRD_PARTY_INCLUDE "${CMAKE_BINARY_DIR}/third_party_include")
file(MAKE_DIRECTORY "${GPUDOCTOR_THIRD_PARTY_INCLUDE}")
foreach(dep CLI nlohmann toml++)
  if(NOT EXISTS "${GPUDOCTOR_THIRD_PARTY_DIR}/${dep}")
    message(FATAL_ERROR "Missing ${GPUDOCTOR_THIRD_PARTY_DIR}/${dep}: run ./dev.sh deps (installs the Debian packages).")
  endif()
  file(CREATE_LINK "${GPUDOCTOR_THIRD_PARTY_DIR}/${dep}" "${GPUDOCTOR_THIRD_PARTY_INCLUDE}/${dep}" SYMBOLIC)
endforeach()

add_library(gpudoctor_third_party INTERFACE)
target_include_directories(gpudoctor_third_party SYSTEM INTERFACE "${GPUDOCTOR_THIRD_PARTY_INCLUDE}")
target_compile_definitions(gpudoctor_third_party INTERFACE TOML_HEADER_ONLY=1 TOML_EXCEPTIONS=0)
