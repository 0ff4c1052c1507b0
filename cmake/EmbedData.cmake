# Compiles data/*.toml into the binary so the knowledge base needs no files at run time.
#
# Included from src/CMakeLists.txt, used after the layers exist: every data file becomes a generated
# .cpp holding its bytes (a byte array: no string-literal length limits on any compiler; named after the
# file, so a unity build can put several in one translation unit) and its name,
# plus one index .cpp that lists them for EmbeddedKnowledgeFiles() (src/knowledge/embedded_files.h).
# Each file is regenerated when its .toml changes; adding or removing a .toml re-runs the configure
# step (CONFIGURE_DEPENDS).
#
# The same file is also the generator script, run at build time as
#   cmake -DEMBED_INPUT=<file.toml> -DEMBED_NAME=<data/x.toml> -DEMBED_SYMBOL=<id> -DEMBED_OUTPUT=<x.cpp>
#         [-DEMBED_TREE=<x.tree>] -P EmbedData.cmake
# EMBED_TREE is the file's parsed tree, written by the knowledge base compiler (cmake/KnowledgeCompiler.cmake,
# tools/kbc/) and embedded beside the text, so the loader decodes it instead of parsing the TOML at start.

if(CMAKE_SCRIPT_MODE_FILE)
  # ---- generator: one data file (and its compiled tree, when given) -> one .cpp ----
  # embed_bytes(<file> <array name> <out var for the C array> <out var for its size>)
  function(embed_bytes file array out_text out_size)
    file(READ "${file}" hex HEX)
    string(APPEND hex "00")  # a trailing NUL keeps the array non-empty; the size does not count it
    string(LENGTH "${hex}" hex_len)
    math(EXPR size "${hex_len} / 2 - 1")
    string(REPEAT "[0-9a-f]" 32 sixteen_bytes)
    string(REGEX REPLACE "(${sixteen_bytes})" "\\1\n" hex "${hex}")
    string(REGEX REPLACE "([0-9a-f][0-9a-f])" "0x\\1," bytes "${hex}")
    set(${out_text} "const unsigned char ${array}[] = {\n${bytes}\n};\n" PARENT_SCOPE)
    set(${out_size} ${size} PARENT_SCOPE)
  endfunction()
  embed_bytes("${EMBED_INPUT}" "k${EMBED_SYMBOL}Bytes" arrays size)
  set(tree "nullptr, 0")
  if(EMBED_TREE)
    embed_bytes("${EMBED_TREE}" "k${EMBED_SYMBOL}TreeBytes" tree_array tree_size)
    string(APPEND arrays "${tree_array}")
    set(tree "k${EMBED_SYMBOL}TreeBytes, ${tree_size}")
  endif()
  file(WRITE "${EMBED_OUTPUT}.tmp"
    "// Generated from ${EMBED_NAME} by cmake/EmbedData.cmake; do not edit.\n"
    "#include \"knowledge/embedded_files.h\"\n\n"
    "namespace gpudoctor::embedded {\n"
    "extern const EmbeddedFile k${EMBED_SYMBOL};\n"
    "namespace {\n"
    "${arrays}"
    "}  // namespace\n"
    "const EmbeddedFile k${EMBED_SYMBOL}{\"${EMBED_NAME}\", k${EMBED_SYMBOL}Bytes, ${size}, ${tree}};\n"
    "}  // namespace gpudoctor::embedded\n")
  file(COPY_FILE "${EMBED_OUTPUT}.tmp" "${EMBED_OUTPUT}" ONLY_IF_DIFFERENT)
  file(REMOVE "${EMBED_OUTPUT}.tmp")
  return()
endif()

# ---- configure time: wire the generated sources into a target ----
# gpudoctor_embed_data(<target> <data_dir> [SUBDIR <name> INDEX <function>] [PATTERN <glob>])
# Without SUBDIR: data/*.toml, listed by EmbeddedKnowledgeFiles(). With SUBDIR (data/explain): the
# files are named data/<name>/x.toml, their symbols get a <name>_ prefix, and INDEX names the
# function that lists them (declared by the code that reads them). PATTERN (default *.toml) picks
# other files: data/tune holds the Python script `tune` runs (data/tune/x.py is named so). COMPILE_TREES
# also embeds each file's tree as GPUDOCTOR_KBC writes it (EmbeddedFile::Tree()).
function(gpudoctor_embed_data target data_dir)
  cmake_parse_arguments(PARSE_ARGV 2 arg "COMPILE_TREES" "SUBDIR;INDEX;PATTERN" "")
  set(pattern "*.toml")
  if(arg_PATTERN)
    set(pattern "${arg_PATTERN}")
  endif()
  set(name_prefix "data")
  set(symbol_prefix "")
  set(index_function "EmbeddedKnowledgeFiles")
  set(out_dir "${CMAKE_CURRENT_BINARY_DIR}/embedded_data")
  if(arg_SUBDIR)
    string(APPEND name_prefix "/${arg_SUBDIR}")
    string(MAKE_C_IDENTIFIER "${arg_SUBDIR}_" symbol_prefix)
    string(APPEND out_dir "/${arg_SUBDIR}")
    set(index_function "${arg_INDEX}")
  endif()
  file(GLOB data_files CONFIGURE_DEPENDS "${data_dir}/${pattern}")
  list(SORT data_files)
  file(MAKE_DIRECTORY "${out_dir}")
  set(generated "")
  set(declarations "")
  set(pointers "")
  foreach(data_file IN LISTS data_files)
    get_filename_component(stem "${data_file}" NAME_WE)
    get_filename_component(file_name "${data_file}" NAME)
    string(MAKE_C_IDENTIFIER "${symbol_prefix}${stem}" symbol)
    set(output "${out_dir}/${stem}.cpp")
    set(tree_args "")
    set(tree_depends "")
    if(arg_COMPILE_TREES)
      set(tree "${out_dir}/${stem}.tree")
      add_custom_command(
        OUTPUT "${tree}"
        COMMAND "${GPUDOCTOR_KBC}" "${data_file}" "${name_prefix}/${file_name}" "${tree}"
        DEPENDS "${data_file}" ${GPUDOCTOR_KBC_DEPENDS}
        COMMENT "Compiling ${name_prefix}/${file_name}"
        VERBATIM)
      set(tree_args "-DEMBED_TREE=${tree}")
      set(tree_depends "${tree}")
    endif()
    add_custom_command(
      OUTPUT "${output}"
      COMMAND "${CMAKE_COMMAND}" "-DEMBED_INPUT=${data_file}" "-DEMBED_NAME=${name_prefix}/${file_name}"
              "-DEMBED_SYMBOL=${symbol}" "-DEMBED_OUTPUT=${output}" ${tree_args}
              -P "${CMAKE_CURRENT_FUNCTION_LIST_FILE}"
      DEPENDS "${data_file}" "${CMAKE_CURRENT_FUNCTION_LIST_FILE}" ${tree_depends}
      COMMENT "Embedding ${name_prefix}/${file_name}"
      VERBATIM)
    list(APPEND generated "${output}")
    string(APPEND declarations "extern const EmbeddedFile k${symbol};\n")
    string(APPEND pointers "      &embedded::k${symbol},\n")
  endforeach()

  set(index "${out_dir}/embedded_knowledge_index.cpp")
  file(CONFIGURE OUTPUT "${index}" CONTENT
"// Generated by cmake/EmbedData.cmake from the list of ${name_prefix}/${pattern}; do not edit.
#include \"knowledge/embedded_files.h\"

namespace gpudoctor {
namespace embedded {
${declarations}}  // namespace embedded

std::span<const EmbeddedFile* const> ${index_function}();
std::span<const EmbeddedFile* const> ${index_function}() {
  static const EmbeddedFile* const kAll[] = {
${pointers}      nullptr};
  return {kAll, sizeof(kAll) / sizeof(kAll[0]) - 1};
}

}  // namespace gpudoctor
")
  target_sources(${target} PRIVATE ${generated} "${index}")
endfunction()
