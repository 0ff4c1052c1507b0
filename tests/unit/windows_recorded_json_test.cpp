// The recorded Windows inputs (.gpudoctor/windows/*.json): every registry value form, subkeys derived
// from the recorded key paths without case, malformed entries skipped and named, and each writer read
// back to what it was given.
#include <gtest/gtest.h>

#include "probe/windows/recorded_windows_json.h"

namespace gpudoctor {
namespace {

TEST(RecordedRegistry, ReadsEveryValueForm) {
  std::vector<std::string> problems;
  auto reg = ParseRecordedRegistry(R"({
    "HKLM\\SYSTEM\\Key": {
      "Text": "AMD Radeon RX 6700 XT",
      "Dword": 4317,
      "Multi": ["PCI\\VEN_1002", "PCI\\CC_0300"],
      "Qword": {"type": "REG_QWORD", "value": 25769803776},
      "Hexq": {"type": "REG_QWORD", "value": "0x600000000"},
      "Expand": {"type": "REG_EXPAND_SZ", "value": "%SystemRoot%\\x"},
      "Bin": {"type": "REG_BINARY", "value": "00000080"},
      "": "default value"
    }
  })",
                                   problems);
  ASSERT_TRUE(reg.ok()) << reg.error().message;
  EXPECT_TRUE(problems.empty());
  const auto& values = reg->keys.at("hklm\\system\\key").values;
  EXPECT_EQ(values.at("text").second.AsText(), "AMD Radeon RX 6700 XT");
  EXPECT_EQ(values.at("dword").second.type, RegistryValue::Type::kDword);
  EXPECT_EQ(values.at("dword").second.AsNumber(), 4317u);
  EXPECT_EQ(values.at("multi").second.strings.size(), 2u);
  EXPECT_EQ(values.at("qword").second.AsNumber(), 25769803776ull);
  EXPECT_EQ(values.at("hexq").second.AsNumber(), 0x600000000ull);
  EXPECT_EQ(values.at("expand").second.type, RegistryValue::Type::kExpandString);
  // Older drivers keep HardwareInformation.MemorySize as 4 little-endian bytes: 0x80000000 = 2 GiB.
  EXPECT_EQ(values.at("bin").second.AsNumber(), 0x80000000ull);
  EXPECT_EQ(values.at("").second.AsText(), "default value");
}

TEST(RecordedRegistry, SkipsAndNamesWhatItCannotRead) {
  std::vector<std::string> problems;
  auto reg = ParseRecordedRegistry(R"({
    "HKCR\\Nope": {},
    "HKLM\\A": {"Bad": {"type": "REG_DWORD", "value": 99999999999}, "Worse": [1, 2], "Good": 1},
    "HKCU\\B": "not an object"
  })",
                                   problems);
  ASSERT_TRUE(reg.ok());
  EXPECT_EQ(problems.size(), 4u);
  EXPECT_EQ(reg->keys.at("hklm\\a").values.size(), 1u);
  EXPECT_FALSE(ParseRecordedRegistry("[1, 2]", problems).ok());
  EXPECT_FALSE(ParseRecordedRegistry("{", problems).ok());
}

TEST(RecordedRegistry, WriterAndReaderAgree) {
  std::map<std::string, std::map<std::string, RegistryValue>> keys;
  RegistryValue multi;
  multi.type = RegistryValue::Type::kMultiString;
  multi.strings = {"a", "b"};
  RegistryValue bin;
  bin.type = RegistryValue::Type::kBinary;
  bin.bytes = std::string("\x01\x00\xff", 3);
  RegistryValue expand;
  expand.type = RegistryValue::Type::kExpandString;
  expand.text = "%USERPROFILE%";
  keys["HKLM\\SOFTWARE\\X"] = {{"S", RegistryValue::String("v")},
                               {"D", RegistryValue::Dword(7)},
                               {"Q", RegistryValue::Qword(1ull << 40)},
                               {"M", multi},
                               {"B", bin},
                               {"E", expand}};
  keys["HKCU\\Empty"] = {};
  std::vector<std::string> problems;
  auto back = ParseRecordedRegistry(RecordedRegistryToJson(keys), problems);
  ASSERT_TRUE(back.ok());
  EXPECT_TRUE(problems.empty());
  const auto& v = back->keys.at("hklm\\software\\x").values;
  EXPECT_EQ(v.at("s").second, RegistryValue::String("v"));
  EXPECT_EQ(v.at("d").second, RegistryValue::Dword(7));
  EXPECT_EQ(v.at("q").second, RegistryValue::Qword(1ull << 40));
  EXPECT_EQ(v.at("m").second, multi);
  EXPECT_EQ(v.at("b").second, bin);
  EXPECT_EQ(v.at("e").second, expand);
  EXPECT_EQ(v.at("s").first, "S");  // the name as written
  EXPECT_TRUE(back->keys.count("hkcu\\empty"));
}

TEST(RecordedDxgi, ReadsHexIdsAndKeepsTheError) {
  std::vector<std::string> problems;
  auto d = ParseRecordedDxgi(R"({"available": true, "error": "", "adapters": [
    {"description": "AMD Radeon RX 7900 XTX", "vendor_id": "0x1002", "device_id": "0x744c", "subsys_id": "0x471e1da2",
     "revision": "0xc8", "dedicated_video_memory": 25753026560, "shared_system_memory": 33680457728,
     "luid": "0x000000000000e3a1", "flags": 0},
    {"description": "no ids"},
    {"description": "Microsoft Basic Render Driver", "vendor_id": 5140, "device_id": 140, "flags": 2}]})",
                             problems);
  ASSERT_TRUE(d.ok());
  ASSERT_EQ(d->adapters.size(), 2u);
  EXPECT_EQ(problems.size(), 1u);
  EXPECT_EQ(d->adapters[0].device_id, 0x744cu);
  EXPECT_EQ(d->adapters[0].subsys_id, 0x471e1da2u);
  EXPECT_EQ(d->adapters[0].luid, 0xe3a1u);
  EXPECT_EQ(d->adapters[1].flags, kDxgiAdapterFlagSoftware);
  auto wine = ParseRecordedDxgi(
      R"j({"available": false, "error": "CreateDXGIFactory1 returned DXGI_ERROR_UNSUPPORTED (0x887A0004)", "adapters": []})j",
      problems);
  ASSERT_TRUE(wine.ok());
  EXPECT_FALSE(wine->available);
  EXPECT_NE(wine->error.find("0x887A0004"), std::string::npos);
}

TEST(RecordedDxgi, WriterAndReaderAgree) {
  DxgiAdapters in;
  in.available = true;
  DxgiAdapterDesc a;
  a.description = "NVIDIA GeForce RTX 4090";
  a.vendor_id = 0x10de;
  a.device_id = 0x2684;
  a.subsys_id = 0x889d1043;
  a.revision = 0xa1;
  a.dedicated_video_memory = 25329668096ull;
  a.shared_system_memory = 34252783616ull;
  a.luid = 0x00000001000f1c2ull;
  in.adapters.push_back(a);
  std::vector<std::string> problems;
  auto back = ParseRecordedDxgi(RecordedDxgiToJson(in), problems);
  ASSERT_TRUE(back.ok());
  EXPECT_EQ(*back, in);
}

TEST(RecordedOs, WriterAndReaderAgree) {
  WindowsSystemFacts f;
  f.version = WindowsVersion{10, 0, 22631};
  f.system_directory = "C:\\WINDOWS\\system32";
  f.memory_total_bytes = 68719476736ull;
  f.memory_available_bytes = 1;
  f.logical_processors = 32;
  f.processor_cores = 16;
  f.processor_packages = 1;
  f.virtualization_firmware_enabled = false;
  f.hypervisor_present = true;
  std::vector<std::string> problems;
  auto back = ParseRecordedOs(RecordedOsToJson(f), problems);
  ASSERT_TRUE(back.ok());
  EXPECT_TRUE(problems.empty());
  EXPECT_EQ(*back, f);
  auto partial =
      ParseRecordedOs(R"({"memory": {"total_bytes": "lots"}, "processors": {"logical": 8}})", problems);
  ASSERT_TRUE(partial.ok());
  EXPECT_FALSE(partial->memory_total_bytes);
  EXPECT_EQ(partial->logical_processors, 8u);
  EXPECT_EQ(problems.size(), 1u);
}

TEST(RecordedFiles, LookupIgnoresCaseAndSlashes) {
  std::vector<std::string> problems;
  auto files = ParseRecordedFiles(R"({"C:\\WINDOWS\\system32\\amdhip64_6.dll": {"version": "6.1.40093.0"}})",
                                  problems);
  ASSERT_TRUE(files.ok());
  EXPECT_EQ(files->count(FileLookupKey("c:/windows/System32/AMDHIP64_6.DLL")), 1u);
  std::map<std::string, WindowsFileInfo> in{{"C:\\x\\nvcuda.dll", {"32.0.15.6094"}}};
  auto back = ParseRecordedFiles(RecordedFilesToJson(in), problems);
  ASSERT_TRUE(back.ok());
  EXPECT_EQ(back->at(FileLookupKey("C:\\x\\nvcuda.dll")).version, "32.0.15.6094");
}

}  // namespace
}  // namespace gpudoctor
