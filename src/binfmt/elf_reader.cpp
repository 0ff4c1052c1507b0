// The ELF section table (64-bit little-endian, as every GPU framework ships): section names,
// file offsets and sizes, read from the header and the table alone.
#include <algorithm>
#include <string>

#include "binfmt/section_table.h"

namespace gpudoctor {

namespace {

// Offsets in the ELF64 file header and section header (System V gABI, "ELF Header", "Sections").
constexpr uint64_t kElf64HeaderSize = 64;
constexpr uint64_t kElf64SectionHeaderSize = 64;
constexpr uint32_t kShtNobits = 8;
constexpr uint16_t kShnXindex = 0xffff;
// A library with more sections than this is not something a compiler made.
constexpr uint64_t kMaxSections = 1u << 20;
constexpr uint64_t kMaxNameTable = 64ull << 20;

std::string MachineName(uint16_t machine) {
  switch (machine) {
    case 62:
      return "x86-64";
    case 183:
      return "AArch64";
    case 21:
      return "PowerPC64";
    case 243:
      return "RISC-V";
    case 190:
      return "NVIDIA CUDA";
    case 224:
      return "AMD GPU";
    default:
      return "machine " + std::to_string(machine);
  }
}

std::string TypeName(uint16_t type) {
  switch (type) {
    case 1:
      return "relocatable object";
    case 2:
      return "executable";
    case 3:
      return "shared object";
    default:
      return "type " + std::to_string(type);
  }
}

struct RawSection {
  uint32_t name = 0;
  uint32_t type = 0;
  uint64_t offset = 0;
  uint64_t size = 0;
  uint32_t link = 0;
};

RawSection ParseSectionHeader(const LeBytes& b, uint64_t at) {
  RawSection s;
  s.name = b.U32Or0(at + 0);
  s.type = b.U32Or0(at + 4);
  s.offset = b.U64Or0(at + 24);
  s.size = b.U64Or0(at + 32);
  s.link = b.U32Or0(at + 40);
  return s;
}

// The ELF identification and header size: a 64-bit little-endian ELF file, or what it is instead.
Status CheckElf64Header(const std::string& what, const std::vector<uint8_t>& head_bytes) {
  LeBytes head(head_bytes);
  if (!head.StartsWithAt(0,
                         "\x7f"
                         "ELF"))
    return UserError(what + " is not an ELF file");
  if (head.size() < 6) return UserError(what + ": the ELF header is truncated");
  if (head_bytes[4] == 1)
    return UserError(what + " is a 32-bit ELF file; only 64-bit libraries are read",
                     "GPU frameworks ship 64-bit libraries only; this is not one of them");
  if (head_bytes[4] != 2) return UserError(what + ": unknown ELF class " + std::to_string(head_bytes[4]));
  if (head_bytes[5] != 1)
    return UserError(what + " is a big-endian ELF file; only little-endian libraries are read");
  if (head.size() < kElf64HeaderSize)
    return UserError(what + ": the ELF header is truncated (" + std::to_string(head.size()) +
                     " of 64 bytes)");
  return Ok{};
}

// The section name table's bytes; empty (with a warning) when the table is absent, has no data, or
// cannot be read.
std::vector<uint8_t> ReadSectionNames(const ByteSource& file, const std::string& what,
                                      const std::vector<RawSection>& sections, uint32_t shstrndx,
                                      uint64_t shnum, SectionTable& table) {
  std::vector<uint8_t> names;
  if (shstrndx != 0 && shstrndx < sections.size()) {
    const RawSection& strtab = sections[shstrndx];
    if (strtab.type == kShtNobits) {
      table.warnings.push_back(what + ": the section name table has no data; sections are unnamed");
    } else {
      auto read = file.Read(strtab.offset, strtab.size, kMaxNameTable);
      if (read.ok()) {
        names = std::move(*read);
      } else {
        table.warnings.push_back(read.error().With("reading the ELF section names").message);
      }
    }
  } else if (shstrndx != 0) {
    table.warnings.push_back(what + ": the section name table index " + std::to_string(shstrndx) +
                             " is outside the table of " + std::to_string(shnum) + " sections");
  }
  return names;
}

// The sections as the readers see them (section 0, the null section, left out), each name read from the
// name table, each extent checked against the file.
void AddSections(const ByteSource& file, const std::string& what, const std::vector<RawSection>& sections,
                 const std::vector<uint8_t>& names, SectionTable& table) {
  LeBytes name_bytes(names);
  for (uint64_t i = 1; i < sections.size(); ++i) {
    const RawSection& s = sections[i];
    BinarySection out;
    out.name = name_bytes.CString(s.name, 256).value_or("");
    // A name offset past the name table (or a name without its end) leaves the section unnamed: said, since
    // an unnamed .hip_fatbin or .nv_fatbin would otherwise be missed without a word (issue 35, attempt #49).
    if (!names.empty() && s.name != 0 && !name_bytes.CString(s.name, 256))
      table.warnings.push_back(what + ": section #" + std::to_string(i) +
                               "'s name lies outside the section name " +
                               "table; the section is read unnamed");
    out.has_file_data = s.type != kShtNobits && s.type != 0;
    out.offset = s.offset;
    out.size = out.has_file_data ? s.size : 0;
    if (out.has_file_data && !file.Contains(s.offset, s.size)) {
      table.warnings.push_back(what + ": section " + (out.name.empty() ? "#" + std::to_string(i) : out.name) +
                               " lies beyond the end of the file (truncated download?)");
      out.size = s.offset < file.Size() ? file.Size() - s.offset : 0;
      out.has_file_data = s.offset < file.Size();
    }
    table.sections.push_back(std::move(out));
  }
}

}  // namespace

Result<SectionTable> ReadElfSections(const ByteSource& file) {
  const std::string what = file.Name();
  auto head_bytes = file.ReadUpTo(0, kElf64HeaderSize);
  if (!head_bytes.ok()) return head_bytes.error();
  if (Status header = CheckElf64Header(what, *head_bytes); !header.ok()) return header.error();
  LeBytes head(*head_bytes);
  SectionTable table;
  table.format = BinaryFormat::kElf;
  table.description =
      "ELF64 little-endian " + TypeName(head.U16Or0(16)) + ", " + MachineName(head.U16Or0(18));
  uint64_t shoff = head.U64Or0(40);
  uint16_t shentsize = head.U16Or0(58);
  uint64_t shnum = head.U16Or0(60);
  uint32_t shstrndx = head.U16Or0(62);
  if (shoff == 0) {
    table.warnings.push_back(what +
                             " has no section table (a fully stripped file); GPU code cannot be located");
    return table;
  }
  if (shentsize != kElf64SectionHeaderSize)
    return UserError(what + ": section headers of " + std::to_string(shentsize) + " bytes, expected 64");

  // Extended numbering: more than 0xff00 sections keep the count and the name table index in
  // section 0 (gABI, "Sections": e_shnum == 0 and e_shstrndx == SHN_XINDEX).
  if (shnum == 0 || shstrndx == kShnXindex) {
    auto first = file.Read(shoff, kElf64SectionHeaderSize);
    if (!first.ok()) return first.error().With("reading ELF section 0");
    RawSection s0 = ParseSectionHeader(LeBytes(*first), 0);
    if (shnum == 0) shnum = s0.size;
    if (shstrndx == kShnXindex) shstrndx = s0.link;
  }
  if (shnum == 0) return table;
  if (shnum > kMaxSections) return UserError(what + ": claims " + std::to_string(shnum) + " sections");

  auto raw = file.Read(shoff, shnum * kElf64SectionHeaderSize);
  if (!raw.ok()) return raw.error().With("reading the ELF section table");
  LeBytes headers(*raw);
  std::vector<RawSection> sections;
  sections.reserve(static_cast<size_t>(shnum));
  for (uint64_t i = 0; i < shnum; ++i)
    sections.push_back(ParseSectionHeader(headers, i * kElf64SectionHeaderSize));

  const std::vector<uint8_t> names = ReadSectionNames(file, what, sections, shstrndx, shnum, table);
  AddSections(file, what, sections, names, table);
  return table;
}

}  // namespace gpudoctor
