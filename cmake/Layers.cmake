# The layers of docs/ARCHITECTURE.md as CMake libraries, so that an upward #include fails the build.
#
#   gpudoctor_layer(<folder> [USES <folder>...] [USES_EVERY_LAYER] [EXCLUDE <regex>...])
#
# makes the static library gpudoctor_layer_<folder> ("gpu/api" -> gpudoctor_layer_gpu_api) from every .cpp
# under src/<folder>/ (a new file is picked up with no CMake edit; a folder of a layer nested inside, such as
# gpu/api inside gpu, is that layer's), and links it to the layers it USES. EXCLUDE drops files another
# target compiles or that are for another platform; they still count as the layer's.
#
# How an include of a layer not used fails: no target sees src/. Each layer has its own include root,
# build/layer_include/<target>/, holding one link, <folder> -> src/<folder>, and passes that root on to
# whatever links it. A layer therefore compiles against its own folder and the folders of the layers it
# links to (and theirs, since their headers include their own uses); any other `#include "gates/..."`
# is "No such file or directory" at compile time. Which of those reachable folders a file may name
# directly is the layer table's "may use" column, checked by tests/unit/layers_test.cpp.
#
# Layers are declared from the bottom up, a nested layer (gpu/api) before the folder holding it (gpu), so
# that the holding folder leaves the nested one's sources to it. gpudoctor_write_layer_links() ends the
# list: it checks that every .cpp under src/ belongs to one layer and writes the link graph
# (build/layer_links.txt) that layers_test compares with the table.

set(GPUDOCTOR_LAYER_INCLUDE "${CMAKE_BINARY_DIR}/layer_include")

# gpudoctor_layer_target(<out> <folder>): the library's name for a folder ("gpu/api" -> gpudoctor_layer_gpu_api).
function(gpudoctor_layer_target out folder)
  string(MAKE_C_IDENTIFIER "gpudoctor_layer_${folder}" name)
  set(${out} "${name}" PARENT_SCOPE)
endfunction()

# The include root of one layer: a folder holding only a link to the layer's own folder.
function(gpudoctor_layer_include_root root folder)
  get_filename_component(parent "${root}/${folder}" DIRECTORY)
  file(MAKE_DIRECTORY "${parent}")
  file(CREATE_LINK "${GPUDOCTOR_SOURCE_ROOT}/${folder}" "${root}/${folder}" SYMBOLIC)
endfunction()

function(gpudoctor_layer folder)
  cmake_parse_arguments(PARSE_ARGV 1 arg "USES_EVERY_LAYER" "" "USES;EXCLUDE")
  get_property(declared GLOBAL PROPERTY GPUDOCTOR_LAYERS)
  if(NOT IS_DIRECTORY "${GPUDOCTOR_SOURCE_ROOT}/${folder}")
    message(FATAL_ERROR "gpudoctor_layer(${folder}): src/${folder}/ is not a folder")
  endif()
  gpudoctor_layer_target(target "${folder}")

  # Its sources: every .cpp under the folder, less those of a nested layer declared before it.
  file(GLOB_RECURSE sources CONFIGURE_DEPENDS "${GPUDOCTOR_SOURCE_ROOT}/${folder}/*.cpp")
  foreach(other IN LISTS declared)
    string(FIND "${other}" "${folder}/" at)
    if(at EQUAL 0)
      list(FILTER sources EXCLUDE REGEX "^${GPUDOCTOR_SOURCE_ROOT}/${other}/")
    endif()
  endforeach()
  set_property(GLOBAL APPEND PROPERTY GPUDOCTOR_LAYER_SOURCES ${sources})
  foreach(regex IN LISTS arg_EXCLUDE)
    list(FILTER sources EXCLUDE REGEX "${regex}")
  endforeach()
  if(NOT sources)
    message(FATAL_ERROR "gpudoctor_layer(${folder}): no .cpp under src/${folder}/ (a layer is a library)")
  endif()

  add_library(${target} STATIC ${sources})
  set(root "${GPUDOCTOR_LAYER_INCLUDE}/${target}")
  gpudoctor_layer_include_root("${root}" "${folder}")
  target_include_directories(${target} PUBLIC "${root}")
  target_link_libraries(${target} PUBLIC gpudoctor_flags gpudoctor_third_party)

  set(uses ${arg_USES})
  if(arg_USES_EVERY_LAYER)
    set(uses ${declared})
  endif()
  foreach(used IN LISTS uses)
    if(NOT used IN_LIST declared)
      message(FATAL_ERROR "gpudoctor_layer(${folder}): uses ${used}, which is not a layer declared before it "
                          "(layers are declared from the bottom up; see cmake/Layers.cmake)")
    endif()
    gpudoctor_layer_target(used_target "${used}")
    target_link_libraries(${target} PUBLIC ${used_target})
  endforeach()

  set_property(GLOBAL APPEND PROPERTY GPUDOCTOR_LAYERS "${folder}")
  set_property(GLOBAL APPEND PROPERTY GPUDOCTOR_LAYER_TARGETS "${target}")
endfunction()

# gpudoctor_write_layer_links(<file>): after the last layer. Fails the configure step when a .cpp under
# src/ belongs to no layer (or to two), and writes one line per layer, "<folder> <target>: <its link
# libraries>", from the targets' LINK_LIBRARIES as the generate step sees them (so a link added anywhere
# later shows up).
function(gpudoctor_write_layer_links file)
  get_property(owned GLOBAL PROPERTY GPUDOCTOR_LAYER_SOURCES)
  file(GLOB_RECURSE all_sources CONFIGURE_DEPENDS "${GPUDOCTOR_SOURCE_ROOT}/*.cpp")
  set(unique ${owned})
  list(REMOVE_DUPLICATES unique)
  list(LENGTH owned owned_count)
  list(LENGTH unique unique_count)
  if(NOT owned_count EQUAL unique_count)
    message(FATAL_ERROR "A .cpp belongs to two layers: declare a nested layer before the folder holding it")
  endif()
  foreach(source IN LISTS all_sources)
    if(NOT source IN_LIST unique)
      message(FATAL_ERROR "${source} belongs to no layer: a new folder under src/ is a new layer "
                          "(a row in docs/ARCHITECTURE.md's table and a gpudoctor_layer() in src/CMakeLists.txt)")
    endif()
  endforeach()

  get_property(folders GLOBAL PROPERTY GPUDOCTOR_LAYERS)
  set(content "# Generated by cmake/Layers.cmake: each layer's folder, library and link libraries.\n")
  foreach(folder IN LISTS folders)
    gpudoctor_layer_target(target "${folder}")
    string(APPEND content "${folder} ${target}: $<JOIN:$<TARGET_PROPERTY:${target},LINK_LIBRARIES>, >\n")
  endforeach()
  file(GENERATE OUTPUT "${file}" CONTENT "${content}")
endfunction()
