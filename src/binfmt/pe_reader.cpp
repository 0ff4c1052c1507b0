// The PE/COFF section table of a Windows DLL (PE32+, and PE32 alike): section names, including
// long names kept in the COFF string table ("/4"), and where each section's bytes lie in the file.
#include <algorithm>
#include <string>

#include "binfmt/section_table.h"
#include "core/strings.h"

namespace gpudoctor {

namespace {

// Offsets from the Microsoft PE format specification ("MS-DOS stub", "COFF File Header",
// "Optional Header", "Section Table", "COFF String Table").
constexpr uint64_t kLfanewOffset = 0x3c;
constexpr uint64_t kCoffHeaderSize = 20;
constexpr uint64_t kSectionHeaderSize = 40;
constexpr uint64_t kSymbolSize = 18;
constexpr uint16_t kPe32Magic = 0x10b;
constexpr uint16_t kPe32PlusMagic = 0x20b;
constexpr uint64_t kMaxStringTable = 64ull << 20;

std::string PeMachineName(uint16_t machine) {
  switch (machine) {
    case 0x8664:
      return "x86-64";
    case 0xaa64:
      return "ARM64";
    case 0x14c:
      return "x86";
    default:
      return "machine 0x" + Hex(machine, 4);
  }
}

// The COFF string table follows the symbol table; its first 4 bytes give its size, themselves included.
std::vector<uint8_t> ReadStringTable(const ByteSource& file, uint32_t symbols_at, uint32_t symbol_count,
                                     std::vector<std::string>& warnings) {
  if (symbols_at == 0) return {};
  uint64_t at = symbols_at + uint64_t{symbol_count} * kSymbolSize;
  auto size_bytes = file.Read(at, 4);
  if (!size_bytes.ok()) {
    warnings.push_back(size_bytes.error().With("reading the COFF string table").message);
    return {};
  }
  uint32_t size = LeBytes(*size_bytes).U32Or0(0);
  if (size < 4) return {};
  auto table = file.Read(at, size, kMaxStringTable);
  if (!table.ok()) {
    warnings.push_back(table.error().With("reading the COFF string table").message);
    return {};
  }
  return std::move(*table);
}

// An 8-byte name field: the name itself (NUL-padded), or "/123", an offset into the string table.
std::string SectionName(std::string_view field, const std::vector<uint8_t>& strings, std::string& problem) {
  std::string_view name = field.substr(0, std::min(field.find('\0'), field.size()));
  if (name.size() < 2 || name[0] != '/' || name[1] == '/')
    return std::string(name);  // "//" is base64, objects only
  auto offset = ParseU64(name.substr(1));
  if (!offset) return std::string(name);
  auto resolved = LeBytes(strings).CString(*offset, 256);
  if (!resolved) {
    problem = "long section name " + std::string(name) + " points outside the string table";
    return std::string(name);
  }
  return *resolved;
}

}  // namespace

Result<SectionTable> ReadPeSections(const ByteSource& file) {
  const std::string what = file.Name();
  auto dos = file.ReadUpTo(0, kLfanewOffset + 4);
  if (!dos.ok()) return dos.error();
  LeBytes dos_bytes(*dos);
  if (!dos_bytes.StartsWithAt(0, "MZ")) return UserError(what + " is not a PE file (no MZ header)");
  auto lfanew = dos_bytes.U32(kLfanewOffset);
  if (!lfanew) return UserError(what + ": the MS-DOS header is truncated");

  auto coff = file.Read(*lfanew, 4 + kCoffHeaderSize);
  if (!coff.ok()) return coff.error().With("reading the PE header");
  LeBytes header(*coff);
  if (!header.StartsWithAt(0, std::string_view("PE\0\0", 4)))
    return UserError(what + ": no PE signature at offset " + std::to_string(*lfanew) +
                     " (an MS-DOS program, or a damaged file)");
  uint16_t machine = header.U16Or0(4);
  uint16_t section_count = header.U16Or0(6);
  uint32_t symbols_at = header.U32Or0(12);
  uint32_t symbol_count = header.U32Or0(16);
  uint16_t optional_size = header.U16Or0(20);
  uint16_t characteristics = header.U16Or0(22);

  SectionTable table;
  table.format = BinaryFormat::kPe;
  uint64_t optional_at = uint64_t{*lfanew} + 4 + kCoffHeaderSize;
  std::string kind = "PE";
  if (optional_size >= 2) {
    auto magic_bytes = file.Read(optional_at, 2);
    if (!magic_bytes.ok()) return magic_bytes.error().With("reading the PE optional header");
    uint16_t magic = LeBytes(*magic_bytes).U16Or0(0);
    if (magic == kPe32PlusMagic) {
      kind = "PE32+";
    } else if (magic == kPe32Magic) {
      kind = "PE32";
    } else {
      return UserError(what + ": unknown PE optional header magic 0x" + Hex(magic, 4));
    }
  }
  table.description = kind + ((characteristics & 0x2000) ? " DLL, " : " image, ") + PeMachineName(machine);

  auto raw = file.Read(optional_at + optional_size, uint64_t{section_count} * kSectionHeaderSize);
  if (!raw.ok()) return raw.error().With("reading the PE section table");
  std::vector<uint8_t> strings = ReadStringTable(file, symbols_at, symbol_count, table.warnings);

  LeBytes headers(*raw);
  for (uint64_t i = 0; i < section_count; ++i) {
    uint64_t at = i * kSectionHeaderSize;
    std::string problem;
    BinarySection s;
    s.name = SectionName(headers.Text(at, 8).value_or(""), strings, problem);
    if (!problem.empty()) table.warnings.push_back(what + ": " + problem);
    uint32_t virtual_size = headers.U32Or0(at + 8);
    uint32_t raw_size = headers.U32Or0(at + 16);
    s.offset = headers.U32Or0(at + 20);
    // Raw data is padded to the file alignment; the virtual size is the real length when it is smaller.
    s.size = (virtual_size != 0 && virtual_size < raw_size) ? virtual_size : raw_size;
    s.has_file_data = raw_size != 0 && s.offset != 0;
    if (!s.has_file_data) s.size = 0;
    if (s.has_file_data && !file.Contains(s.offset, s.size)) {
      table.warnings.push_back(what + ": section " + s.name +
                               " lies beyond the end of the file (truncated?)");
      s.size = s.offset < file.Size() ? file.Size() - s.offset : 0;
      s.has_file_data = s.offset < file.Size();
    }
    table.sections.push_back(std::move(s));
  }
  return table;
}

}  // namespace gpudoctor
