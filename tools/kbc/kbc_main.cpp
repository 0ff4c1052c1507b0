// gpudoctor_kbc: the knowledge base compiler, run by the build (cmake/EmbedData.cmake). Parses one data
// TOML file with the loader's own ParseTomlTree and writes its tree as the blob of toml_tree_codec.h, which
// the binary embeds beside the text and decodes at start instead of parsing (issue 34). A syntax error
// fails the build with the file and line, as the loader would have reported it at run time.
//   gpudoctor_kbc INPUT.toml NAME OUTPUT.tree     (NAME labels messages: "data/gpus_amd.toml")
#include <cstdio>
#include <fstream>
#include <iterator>
#include <string>

#include "knowledge/toml_tree.h"
#include "knowledge/toml_tree_codec.h"

namespace {

bool ReadWholeFile(const char* path, std::string& out) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return false;
  out.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  return !in.bad();
}

bool WriteWholeFile(const char* path, const std::string& bytes) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  return static_cast<bool>(out);
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 4) {
    std::fprintf(stderr, "usage: gpudoctor_kbc INPUT.toml NAME OUTPUT.tree\n");
    return 2;
  }
  std::string text;
  if (!ReadWholeFile(argv[1], text)) {
    std::fprintf(stderr, "gpudoctor_kbc: cannot read %s\n", argv[1]);
    return 1;
  }
  gpudoctor::TomlParse parsed = gpudoctor::ParseTomlTree(text, argv[2]);
  if (!parsed.root) {
    std::fprintf(stderr, "%s:%u: TOML syntax: %s\n", argv[2], static_cast<unsigned>(parsed.error_line),
                 parsed.error.c_str());
    return 1;
  }
  if (!WriteWholeFile(argv[3], gpudoctor::EncodeTomlTree(*parsed.root))) {
    std::fprintf(stderr, "gpudoctor_kbc: cannot write %s\n", argv[3]);
    return 1;
  }
  return 0;
}
