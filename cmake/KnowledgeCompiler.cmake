# The knowledge base compiler (tools/kbc/): a host program the build runs on each data/*.toml to write its
# parsed tree as a blob (src/knowledge/toml_tree_codec.h), which cmake/EmbedData.cmake embeds beside the
# text. Sets GPUDOCTOR_KBC (the command to run) and GPUDOCTOR_KBC_DEPENDS (what a rule running it waits for).
# - A native build builds it as one of its own targets.
# - A cross build (mingw-w64: its programs cannot run here) builds tools/kbc as a project of its own with
#   the host's default compiler, at build time (ExternalProject), so the Windows binary gets the same blobs.
# - -DGPUDOCTOR_HOST_KBC=PATH uses a gpudoctor_kbc built elsewhere instead (a native build's
#   build/release/tools/kbc/gpudoctor_kbc): for a cross build on a machine without a host compiler.
set(GPUDOCTOR_HOST_KBC "" CACHE FILEPATH "gpudoctor_kbc built for this machine (empty: build it here)")
if(GPUDOCTOR_HOST_KBC)
  set(GPUDOCTOR_KBC "${GPUDOCTOR_HOST_KBC}")
  set(GPUDOCTOR_KBC_DEPENDS "${GPUDOCTOR_HOST_KBC}")
elseif(CMAKE_CROSSCOMPILING)
  include(ExternalProject)
  set(GPUDOCTOR_KBC "${CMAKE_BINARY_DIR}/kbc_host/gpudoctor_kbc")
  ExternalProject_Add(gpudoctor_kbc_host
    SOURCE_DIR "${PROJECT_SOURCE_DIR}/tools/kbc"
    BINARY_DIR "${CMAKE_BINARY_DIR}/kbc_host"
    CMAKE_ARGS -DCMAKE_BUILD_TYPE=Release "-DGPUDOCTOR_THIRD_PARTY_DIR=${GPUDOCTOR_THIRD_PARTY_DIR}"
    BUILD_ALWAYS ON  # ninja in kbc_host decides what changed (the codec, the TOML reader)
    BUILD_BYPRODUCTS "${GPUDOCTOR_KBC}"
    INSTALL_COMMAND "")
  set(GPUDOCTOR_KBC_DEPENDS gpudoctor_kbc_host "${GPUDOCTOR_KBC}")
else()
  add_subdirectory("${PROJECT_SOURCE_DIR}/tools/kbc" "${CMAKE_BINARY_DIR}/tools/kbc")
  set(GPUDOCTOR_KBC "$<TARGET_FILE:gpudoctor_kbc>")
  set(GPUDOCTOR_KBC_DEPENDS gpudoctor_kbc)
endif()
