// The loader model (data/shared_libraries.toml, knowledge/shared_library_lookup.cpp) and its reading of
// loader failures in explain (explain/loader_fix.h): which component ships a library and what its version
// means, the command for the log's install route, undefined symbols, and the GCC / glibc a symbol version
// needs. Expected components and versions are the model's own rows, looked up here, never restated.
#include <gtest/gtest.h>

#include <string>

#include "explain/explain_catalog.h"
#include "explain/explain_report.h"
#include "explain/log_scanner.h"
#include "explain_test_util.h"
#include "knowledge/knowledge_loader.h"
#include "test_common.h"

namespace gpudoctor {
namespace {

using testing::Contains;

// The loader fix of the report's first finding, which must be `id`.
LoaderFix FixOf(const std::string& log, const std::string& id) {
  ExplainReport r = ReportOnLinux(log);
  EXPECT_FALSE(r.matches.empty()) << log;
  if (r.matches.empty()) return {};
  EXPECT_EQ(r.matches.front().match.entry->id, id) << log;
  EXPECT_TRUE(r.matches.front().loader_fix.has_value()) << log;
  return r.matches.front().loader_fix.value_or(LoaderFix{});
}

TEST(LoaderModel, FileNamesResolveToTheirComponentAndMajor) {
  struct Case {
    const char* file;
    const char* family;
    const char* version;
  };
  for (const Case& c : {Case{"libcublasLt.so.11", "cuda", "11"}, Case{"libcudart.so.12.1", "cuda", "12"},
                        Case{"cudart64_110.dll", "cuda", "11"}, Case{"cudart64_90.dll", "cuda", "9"},
                        Case{"nvrtc64_120_0.dll", "cuda", "12"}, Case{"cublas64_12.dll", "cuda", "12"},
                        Case{"libcudnn_cnn_infer.so.8", "cudnn", "8"}, Case{"cudnn64_9.dll", "cudnn", "9"},
                        Case{"AMDHIP64_6.DLL", "amd_driver", "6"}, Case{"libcuda.so.1", "nvidia_driver", "1"},
                        Case{"C:\\AI\\venv\\Lib\\site-packages\\torch\\lib\\c10.dll", "torch", ""},
                        Case{"/usr/lib/x86_64-linux-gnu/libstdc++.so.6", "cxx", "6"}}) {
    std::string version = "unset";
    const SharedLibrary* lib = EmbeddedDb().FindSharedLibrary(c.file, &version);
    ASSERT_NE(lib, nullptr) << c.file;
    EXPECT_EQ(lib->family, c.family) << c.file;
    EXPECT_EQ(version, c.version) << c.file;
  }
  EXPECT_EQ(EmbeddedDb().FindSharedLibrary("libfrobnicate.so.3"), nullptr);
  EXPECT_EQ(EmbeddedDb().FindSharedLibrary("libcudart.so.x1"), nullptr);  // '*' stands for digits only
  EXPECT_EQ(EmbeddedDb().FindSharedLibrary(""), nullptr);
}

TEST(LoaderModel, BadRowsAreRefused) {
  const char* bad[] = {
      // two stars
      "[[shared_library]]\nnames = [\"lib*cu*.so\"]\ncomponent = \"x\"\nfamily = \"cuda\"\nchecked = "
      "2026-12-05\n"
      "source = \"https://example.com/a\"\n",
      // a driver library with a pip package
      "[[shared_library]]\nnames = [\"libcuda.so.*\"]\ncomponent = \"x\"\nfamily = \"nvidia_driver\"\ndriver "
      "= true\n"
      "pip = \"nvidia-driver\"\nchecked = 2026-12-05\nsource = \"https://example.com/a\"\n",
      // a path instead of a file name
      "[[shared_library]]\nnames = [\"/usr/lib/libx.so\"]\ncomponent = \"x\"\nfamily = \"system\"\nchecked = "
      "2026-12-05\n"
      "source = \"https://example.com/a\"\n",
      "[[cxx_runtime_version]]\nsymbol_version = \"GLIBC_2.34\"\ngcc = \"12.1\"\nchecked = 2026-12-05\n"
      "source = \"https://example.com/a\"\n",
      "[[glibc_release]]\nglibc = \"3.1\"\ndistributions = [\"x\"]\nchecked = 2026-12-05\nsource = "
      "\"https://example.com/a\"\n",
  };
  for (const char* text : bad) EXPECT_FALSE(ParseKnowledgeFile({"libs.toml", text}).errors.empty()) << text;
}

TEST(LoaderFixTest, MissingCudaLibraryOfAnotherMajorNamesBothAndThePipPackage) {
  LoaderFix f = FixOf(
      "torch 2.5.1+cu121\n"
      "  File \"/home/u/venv/lib/python3.11/site-packages/onnxruntime/capi/_pybind_state.py\", line 3\n"
      "ImportError: /home/u/venv/lib/python3.11/site-packages/x/libfoo.so: libcublasLt.so.11: cannot open "
      "shared "
      "object file: No such file or directory\n",
      "loader.missing_library");
  std::string version;
  const SharedLibrary* lib = EmbeddedDb().FindSharedLibrary("libcublasLt.so.11", &version);
  ASSERT_NE(lib, nullptr);
  EXPECT_TRUE(Contains(f.component, lib->component)) << f.component;
  EXPECT_EQ(f.route, "pip");
  EXPECT_TRUE(Contains(f.advice, "built for CUDA 11")) << f.advice;
  EXPECT_TRUE(Contains(f.advice, "CUDA 12")) << f.advice;
  EXPECT_TRUE(Contains(f.commands.bash, "pip install nvidia-cublas-cu11")) << f.commands.bash;
}

// pip's nvidia-* wheels are not on the loader's path for programs other than torch: the fix puts the
// package's lib folder on LD_LIBRARY_PATH, by the module the package installs.
TEST(LoaderFixTest, PipNvidiaLibrariesGetTheirFolderOnTheLoaderPath) {
  LoaderFix f = FixOf(
      "torch 2.5.1+cu121\n"
      "  File \"/home/u/venv/lib/python3.11/site-packages/ctranslate2/__init__.py\", line 3\n"
      "RuntimeError: Library libcublas.so.12 is not found or cannot be loaded\n"
      "OSError: libcublas.so.12: cannot open shared object file: No such file or directory\n",
      "loader.missing_library");
  EXPECT_TRUE(Contains(f.commands.bash, "import nvidia.cublas.lib as m")) << f.commands.bash;
  EXPECT_TRUE(Contains(f.commands.bash, "export LD_LIBRARY_PATH=")) << f.commands.bash;
  // A Windows log gets no LD_LIBRARY_PATH line.
  ExplainReport windows = ReportOnLinux(
      "C:\\Users\\u\\venv\\Lib\\site-packages\\ctranslate2\\__init__.py\n"
      "RuntimeError: Library cublas64_12.dll is not found or cannot be loaded\n");
  bool had_loader_fix = false;
  for (const auto& m : windows.matches) {
    if (!m.loader_fix) continue;
    had_loader_fix = true;
    EXPECT_EQ(m.loader_fix->route, "windows");
    EXPECT_FALSE(Contains(m.loader_fix->commands.bash + m.loader_fix->commands.powershell, "LD_LIBRARY_PATH"))
        << m.loader_fix->commands.bash << m.loader_fix->commands.powershell;
  }
  EXPECT_TRUE(had_loader_fix);
}

// cuDNN 8 has wheels for CUDA 11 and 12: with no CUDA in the log both are named; with one, only its own.
TEST(LoaderFixTest, CudnnEightWithoutACudaInTheLogNamesBothWheels) {
  LoaderFix f = FixOf(
      "Could not load library libcudnn_ops_infer.so.8. Error: libcudnn_ops_infer.so.8: cannot open shared "
      "object file: No such file or directory\n",
      "loader.missing_library");
  EXPECT_TRUE(Contains(f.commands.bash, "nvidia-cudnn-cu11==8.*")) << f.commands.bash;
  EXPECT_TRUE(Contains(f.commands.bash, "nvidia-cudnn-cu12==8.9.*")) << f.commands.bash;
  EXPECT_TRUE(Contains(f.commands.bash, "import nvidia.cudnn.lib as m")) << f.commands.bash;
  LoaderFix cu12 = FixOf(
      "torch 2.1.2+cu121\n"
      "  File \"/home/u/venv/lib/python3.11/site-packages/ctranslate2/__init__.py\", line 3\n"
      "Could not load library libcudnn_ops_infer.so.8. Error: libcudnn_ops_infer.so.8: cannot open shared "
      "object file: No such file or directory\n",
      "loader.missing_library");
  EXPECT_TRUE(Contains(cu12.commands.bash, "nvidia-cudnn-cu12==8.*")) << cu12.commands.bash;
  EXPECT_FALSE(Contains(cu12.commands.bash, "cu11")) << cu12.commands.bash;
}

TEST(LoaderFixTest, CudaThirteenWheelsHaveNoSuffix) {
  LoaderFix f = FixOf(
      "ImportError: libcudart.so.13: cannot open shared object file: No such file or directory\n"
      "  File \"/srv/env/lib/python3.12/site-packages/cupy/__init__.py\", line 1\n",
      "loader.missing_library");
  EXPECT_TRUE(Contains(f.commands.bash, "nvidia-cuda-runtime==13.*")) << f.commands.bash;
  EXPECT_FALSE(Contains(f.commands.bash, "-cu13")) << f.commands.bash;
}

TEST(LoaderFixTest, DriverLibrariesComeFromTheDriverOrTheContainerRuntime) {
  LoaderFix in_container = FixOf(
      "$ docker run -it pytorch/pytorch python -c 'import torch'\n"
      "OSError: libcuda.so.1: cannot open shared object file: No such file or directory\n",
      "loader.missing_library");
  EXPECT_EQ(in_container.route, "container");
  EXPECT_TRUE(Contains(in_container.advice, "--gpus all")) << in_container.advice;
  EXPECT_FALSE(Contains(in_container.commands.bash, "pip install")) << in_container.commands.bash;

  LoaderFix in_wsl = FixOf(
      "Linux 5.15.153.1-microsoft-standard-WSL2\n"
      "error while loading shared libraries: libcuda.so.1: cannot open shared object file\n",
      "loader.missing_library");
  EXPECT_EQ(in_wsl.route, "wsl");
  EXPECT_TRUE(Contains(in_wsl.commands.bash, "/usr/lib/wsl/lib")) << in_wsl.commands.bash;
}

TEST(LoaderFixTest, CondaEnvironmentsGetTheCondaPackage) {
  LoaderFix f = FixOf(
      "(py310) u@h:~/miniconda3/envs/py310$ python app.py\n"
      "OSError: libsndfile.so.1: cannot open shared object file: No such file or directory\n",
      "loader.missing_library");
  EXPECT_EQ(f.route, "conda");
  EXPECT_TRUE(Contains(f.commands.bash, "conda install -c conda-forge libsndfile")) << f.commands.bash;
}

// Who asked: the package of the traceback's last frame before the failure. A package other than torch was
// built for the library's version, so its own build for the installed CUDA is the alternative; torch ships or
// names its CUDA libraries, so a missing one is a broken torch install.
TEST(LoaderFixTest, ThePackageWhoseImportFailedIsNamedWithItsRebuild) {
  LoaderFix f = FixOf(
      "Traceback (most recent call last):\n"
      "  File \"/home/u/app.py\", line 3, in <module>\n"
      "  File \"/usr/lib/python3/dist-packages/numpy/core/__init__.py\", line 9, in <module>\n"
      "  File \"/usr/local/lib/python3.5/dist-packages/cupy/cuda/__init__.py\", line 3, in <module>\n"
      "ImportError: libcudart.so.7.5: cannot open shared object file: No such file or directory\n",
      "loader.missing_library");
  EXPECT_EQ(f.requester, "cupy");
  EXPECT_TRUE(Contains(f.advice, "Install the CUDA runtime (cudart) of CUDA 7.5")) << f.advice;
  EXPECT_TRUE(Contains(f.advice, "reinstall cupy built for the CUDA you have")) << f.advice;
  EXPECT_TRUE(Contains(f.commands.bash, "pip install --force-reinstall cupy")) << f.commands.bash;
  // CUDA 7.5 predates conda's cudatoolkit packages: no conda line, and the toolkit is named in full.
  EXPECT_FALSE(Contains(f.commands.bash, "conda install")) << f.commands.bash;
  EXPECT_TRUE(Contains(f.advice, "the CUDA 7.5 toolkit")) << f.advice;

  LoaderFix t = FixOf(
      "  File \"/opt/venv/lib/python3.11/site-packages/torch/__init__.py\", line 237, in <module>\n"
      "ImportError: libcudnn.so.9: cannot open shared object file: No such file or directory\n",
      "loader.missing_library");
  EXPECT_EQ(t.requester, "torch");
  EXPECT_TRUE(Contains(t.advice, "Install cuDNN 9")) << t.advice;
  EXPECT_TRUE(Contains(t.commands.bash, "pip install --force-reinstall torch --index-url"))
      << t.commands.bash;

  // No traceback: nobody is named.
  LoaderFix n =
      FixOf("ImportError: libcudnn.so.9: cannot open shared object file: No such file or directory\n",
            "loader.missing_library");
  EXPECT_TRUE(n.requester.empty());
  EXPECT_FALSE(Contains(n.commands.bash, "--force-reinstall")) << n.commands.bash;
}

TEST(LoaderFixTest, UnknownLibrariesGetAWayToFindTheirPackage) {
  LoaderFix f =
      FixOf("error while loading shared libraries: libfrobnicate.so.3: cannot open shared object file\n",
            "loader.missing_library");
  EXPECT_TRUE(f.component.empty());
  EXPECT_TRUE(Contains(f.commands.bash, "apt-file search libfrobnicate.so.3")) << f.commands.bash;
}

TEST(LoaderFixTest, AnExtensionBuiltForAnotherTorchIsNamedWithItsPackage) {
  LoaderFix f = FixOf(
      "ImportError: "
      "/usr/local/lib/python3.10/dist-packages/flash_attn_2_cuda.cpython-310-x86_64-linux-gnu.so: "
      "undefined symbol: _ZN3c104cuda9SetDeviceEi\n",
      "loader.undefined_symbol");
  EXPECT_TRUE(Contains(f.component, "flash-attn")) << f.component;
  EXPECT_TRUE(Contains(f.advice, "another torch")) << f.advice;
  EXPECT_TRUE(Contains(f.commands.bash, "--no-build-isolation flash-attn")) << f.commands.bash;

  LoaderFix nccl =
      FixOf("ImportError: /usr/lib/x86_64-linux-gnu/libnccl.so.2: undefined symbol: ncclCommRegister\n",
            "loader.undefined_symbol");
  EXPECT_EQ(nccl.component, "NCCL");
  EXPECT_TRUE(Contains(nccl.commands.bash, "LD_LIBRARY_PATH")) << nccl.commands.bash;

  LoaderFix mkl = FixOf(
      "OSError: /opt/conda/lib/python3.10/site-packages/torch/lib/libtorch_cpu.so: undefined "
      "symbol: iJIT_NotifyEvent\n",
      "loader.undefined_symbol");
  EXPECT_TRUE(Contains(mkl.commands.bash, "mkl=2024.0")) << mkl.commands.bash;
}

TEST(LoaderFixTest, SymbolVersionsNameTheGccAndTheDistributions) {
  LoaderFix cxx = FixOf(
      "ImportError: /home/u/miniconda3/envs/a/bin/../lib/libstdc++.so.6: version `GLIBCXX_3.4.30' "
      "not found (required by /lib/x86_64-linux-gnu/libLLVM-15.so.1)\n",
      "loader.cxx_runtime_too_old");
  const CxxRuntimeVersion* gcc = EmbeddedDb().FindCxxRuntimeVersion("GLIBCXX_3.4.30");
  ASSERT_NE(gcc, nullptr);
  EXPECT_TRUE(Contains(cxx.advice, "GCC " + gcc->gcc)) << cxx.advice;
  EXPECT_TRUE(Contains(cxx.commands.bash, "libstdcxx-ng>=" + gcc->gcc.substr(0, gcc->gcc.find('.'))))
      << cxx.commands.bash;
  EXPECT_EQ(cxx.route, "conda");

  LoaderFix glibc = FixOf(
      "./llama-server: /lib/x86_64-linux-gnu/libc.so.6: version `GLIBC_2.34' not found "
      "(required by ./llama-server)\n",
      "loader.glibc_too_old");
  for (const GlibcRelease* g : EmbeddedDb().GlibcAtLeast(*Version::Parse("2.34")))
    for (const std::string& d : g->distributions)
      EXPECT_TRUE(Contains(glibc.advice, d)) << d << ": " << glibc.advice;
  EXPECT_FALSE(Contains(glibc.advice, "Ubuntu 20.04")) << glibc.advice;  // 2.31 is older than asked
}

TEST(LoaderFixTest, CudnnLibraryLoadNamesTheLibraryThatWasMissing) {
  LoaderFix f = FixOf(
      "Could not load library libcudnn_cnn_infer.so.8. Error: libnvrtc.so: cannot open shared "
      "object file: No such file or directory\n",
      "cuda.cudnn_library_load");
  EXPECT_EQ(f.library, "libnvrtc.so");
  EXPECT_TRUE(Contains(f.component, "NVRTC")) << f.component;
}

}  // namespace
}  // namespace gpudoctor
