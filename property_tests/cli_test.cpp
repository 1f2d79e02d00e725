// The shared machinery: the family registry is consistent with the tree, every family's vector files
// are fresh, embedded and fail `vectors check` when corrupted, the oracle dispatches by op, selftest
// filters by glob, --device parsing, strict hex, and the progress output in logs.
#include <gtest/gtest.h>

#include "property_tests/read_file.hpp"

#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

#include "cli/devices.hpp"
#include "suite/embedded.hpp"
#include "cli/family.hpp"
#include "suite/hex.hpp"
#include "cli/oracle.hpp"
#include "suite/paths.hpp"
#include "cli/progress.hpp"
#include "cli/selftest.hpp"
#include "suite/vectors.hpp"

namespace {
using bx::test::read_file;
namespace fs = std::filesystem;
using bx::InputError;
using json = nlohmann::json;


TEST(Registry, EveryFamilyIsFoundByItsNameInTheTree) {
  const fs::path root = bx::source_dir();
  std::set<std::string> names;
  ASSERT_GE(bx::families().size(), 2u);
  for (auto* f : bx::families()) {
    EXPECT_TRUE(names.insert(f->name()).second) << "two families named " << f->name();
    for (const char* dir : {"reference", "gpu", "cli", "property_tests", "vectors"})
      EXPECT_TRUE(fs::is_directory(root / dir / f->name())) << dir << "/" << f->name() << " missing";
    const auto vs = f->variants();
    EXPECT_FALSE(vs.empty()) << f->name();
    for (auto& v : vs) {
      EXPECT_EQ(v.name.rfind(f->name() + "/", 0), 0u) << v.name << " is not named " << f->name() << "/...";
      const std::string kind = v.contract.substr(0, v.contract.find(','));
      EXPECT_TRUE(kind == "bit-exact" || kind == "characterised" || kind == "between-variants" || kind == "negative-control")
          << v.name << ": " << v.contract;
      EXPECT_TRUE(kind != "between-variants" || v.contract.size() > kind.size()) << v.name << ": no bound stated";
#if defined(BX_HAVE_CUDA)  // without CUDA, device-only variants (PTX backends) run nowhere by construction
      EXPECT_TRUE(v.cpu || v.gpu) << v.name << " runs nowhere";
#endif
    }
    for (auto& rel : f->vector_files()) {
      EXPECT_TRUE(fs::is_regular_file(root / rel)) << rel;
      EXPECT_NO_THROW(bx::embedded_file(rel)) << rel << " is not embedded";
    }
    for (auto& t : f->fuzz_targets()) {
      EXPECT_EQ(t.rfind(f->name() + "_", 0), 0u) << t;
      EXPECT_TRUE(fs::is_regular_file(root / "fuzz" / (t + ".cpp"))) << t;
      EXPECT_TRUE(fs::is_directory(root / "fuzz/corpus" / t)) << t << " has no corpus";
    }
    EXPECT_FALSE(f->zoo_checks().empty()) << f->name() << " declares no zoo check";
    EXPECT_FALSE(f->oracle_ops().empty()) << f->name() << " has no oracle op";
  }
  for (auto& fault : bx::all_faults()) {
    EXPECT_TRUE(names.count(fault.family)) << fault.name << ": family " << fault.family;
    EXPECT_TRUE(fault.where == "shared" || fault.where == "host" || fault.where == "device") << fault.name << ": " << fault.where;
  }
  for (auto* f : bx::families()) EXPECT_FALSE(f->faults().empty()) << f->name() << " plants no fault: its checks are unproven";
}

TEST(Vectors, CheckedInFilesAreFreshAndEmbedded) {
  const auto fresh = bx::vectors::generate_all(bx::vector_owners());
  ASSERT_GE(fresh.size(), 5u);
  for (auto& [rel, text] : fresh) {
    EXPECT_EQ(read_file((fs::path(bx::source_dir()) / rel).string()), text) << rel << " is stale: run `bitexact vectors generate`";
    EXPECT_EQ(bx::embedded_file(rel), text) << rel << " embedded copy differs (rebuild)";
  }
  EXPECT_EQ(bx::vectors::generate_all(bx::vector_owners()), fresh) << "generation is not deterministic";
}

// Every owned file corrupted in turn, in a copy of the tree: one hex digit of its last long hex value
// (16 or more digits) changed, then the file cut in half. `vectors check` must name that file each time.
TEST(Vectors, CheckFailsOnEachCorruptedFile) {
  const fs::path src = bx::source_dir(), tmp = fs::temp_directory_path() / ("bx-vectors-" + std::to_string(::getpid()));
  fs::remove_all(tmp);
  fs::create_directories(tmp);
  fs::copy(src / "vectors", tmp / "vectors", fs::copy_options::recursive);
  ASSERT_TRUE(bx::vectors::check_all(bx::vector_owners(), tmp.string()).empty()) << "the clean copy must pass";
  for (auto* f : bx::families())
    for (auto& rel : f->vector_files()) {
      const std::string good = read_file((tmp / rel).string());
      size_t at = std::string::npos;
      for (size_t q = good.rfind('"'); q != std::string::npos && q > 0; q = good.rfind('"', q - 1)) {
        size_t b = q;  // q: closing quote of a string value; find its opening quote
        while (b > 0 && std::isxdigit(static_cast<unsigned char>(good[b - 1]))) --b;
        if (b > 0 && good[b - 1] == '"' && q - b >= 16) {
          at = b;
          break;
        }
      }
      ASSERT_NE(at, std::string::npos) << rel << ": no hex value to corrupt";
      for (int variant = 0; variant < 2; ++variant) {
        std::string bad = good;
        if (variant == 0) bad[at] = bad[at] == '0' ? '1' : '0';
        else bad.resize(bad.size() / 2);
        std::ofstream(tmp / rel, std::ios::binary) << bad;
        const auto problems = f->check_vectors(tmp.string());
        bool named = false;
        for (auto& p : problems) named = named || p.find(fs::path(rel).filename().string()) != std::string::npos;
        EXPECT_TRUE(named) << rel << (variant ? " cut in half" : " with one digit changed") << " passed `vectors check`";
        std::ofstream(tmp / rel, std::ios::binary) << good;
      }
    }
  std::ofstream(tmp / "vectors/stray.json") << "{}";
  const auto problems = bx::vectors::check_all(bx::vector_owners(), tmp.string());
  ASSERT_EQ(problems.size(), 1u);
  EXPECT_NE(problems[0].find("no family owns"), std::string::npos) << problems[0];
  fs::remove_all(tmp);
}

TEST(Oracle, ListNamesEveryFamilysOpsVariantsAndPlaces) {
  bx::Oracle o(bx::DeviceSelection{true, {}});
  const json r = json::parse(o.reply(R"({"op":"list"})"));
  for (auto* f : bx::families()) {
    ASSERT_TRUE(r["ops"].contains(f->name())) << r.dump();
    EXPECT_EQ(r["ops"][f->name()].size(), f->oracle_ops().size());
    for (auto& v : f->variants()) EXPECT_NE(r["variants"].dump().find("\"" + v.name + "\""), std::string::npos) << v.name;
  }
  EXPECT_EQ(r["places"], json::array({"cpu"}));
  EXPECT_NE(json::parse(o.reply(R"({"op":"nope.x"})"))["error"].get<std::string>().find("unknown op"), std::string::npos);
  EXPECT_NE(json::parse(o.reply(R"([1,2])"))["error"].get<std::string>().find("JSON object"), std::string::npos);
  EXPECT_NE(json::parse(o.reply(R"({"op":"list","x":1})"))["error"].get<std::string>().find("unknown field"), std::string::npos);
}

TEST(Selftest, VariantGlobs) {
  EXPECT_TRUE(bx::variant_matches("", "md5z/plain"));
  EXPECT_TRUE(bx::variant_matches("md5z/q9-*", "md5z/q9-v2"));
  EXPECT_FALSE(bx::variant_matches("md5z/q9-*", "md5z/plain"));
  EXPECT_TRUE(bx::variant_matches("*ptx*", "field25519/fe32-ptx"));
  EXPECT_TRUE(bx::variant_matches("fe51-*", "field25519/fe51-portable"));  // without the family part
  EXPECT_FALSE(bx::variant_matches("fe51-*", "field25519/fe32-portable"));
}

TEST(Devices, ParseIsStrict) {
  EXPECT_TRUE(bx::parse_devices("cpu").cpu);
  EXPECT_TRUE(bx::parse_devices("cpu").gpus.empty());
  for (const char* bad : {"", "nope", "-1", "1x", "0x0", " 0", "99999"}) EXPECT_THROW(bx::parse_devices(bad), InputError) << bad;
  if (bx::gpu_count() == 0) {
    EXPECT_THROW(bx::parse_devices("gpu"), InputError);
    EXPECT_THROW(bx::parse_devices("0"), InputError);
    EXPECT_TRUE(bx::parse_devices("all").gpus.empty());
  }
}

// Every byte value in every position of a hex string: only 0-9, a-f and A-F are accepted.
TEST(Hex, StrictEverywhere) {
  for (int c = 0; c < 256; ++c) {
    const bool hex = (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
    for (int pos = 0; pos < 4; ++pos) {
      std::string s = "0a0B";
      s[pos] = char(c);
      if (hex) EXPECT_NO_THROW(bx::from_hex(s, 2, "x")) << c;
      else EXPECT_THROW(bx::from_hex(s, 2, "x"), InputError) << "byte " << c << " at " << pos;
    }
  }
  EXPECT_THROW(bx::from_hex("abc", 1, "x"), InputError);
  EXPECT_THROW(bx::from_hex("ab", 2, "x"), InputError);
  EXPECT_EQ(bx::from_hex("fF00", 2, "x"), (std::vector<uint8_t>{0xff, 0x00}));
}

TEST(Progress, PlainLinesWhenNotATerminalAndNothingWhenQuiet) {
  testing::internal::CaptureStderr();
  {
    bx::Progress p("run", 100, true, 0.0);
    p.update(50, "half");
    p.update(100);
  }
  const std::string out = testing::internal::GetCapturedStderr();
  EXPECT_EQ(out.find('\r'), std::string::npos) << out;  // ctest's stderr is a pipe
  EXPECT_NE(out.find("run:  50.0%"), std::string::npos) << out;
  EXPECT_NE(out.find("run: 100.0%"), std::string::npos) << out;
  testing::internal::CaptureStderr();
  {
    bx::Progress q("run", 100, false, 0.0);
    q.update(100);
  }
  EXPECT_EQ(testing::internal::GetCapturedStderr(), "");
}

}  // namespace
