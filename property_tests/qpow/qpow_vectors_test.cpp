// qpow vector files (suite/qpow/vectors): the files on disk are exactly what generation writes, they verify
// against the golden model, the embedded copies parse, the loaders reject malformed input with InputError,
// a tampered file is reported at exactly the tampered case, and every mining known answer of
// docs/specs/qpow.md §9.4 is present (the list below is copied from the spec independently of the generator).
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <functional>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "suite/hex.hpp"
#include "suite/paths.hpp"
#include "suite/qpow/vectors.hpp"
#include "reference/qpow/qpow_ref.hpp"

#ifndef BX_SOURCE_DIR
#error "BX_SOURCE_DIR (the repository root, a string) must be defined by the build"
#endif

namespace {
namespace fs = std::filesystem;
namespace V = bx::qpow;
namespace R = bx::ref::qpow;
using bx::InputError;
using R::Int;

std::string read_file(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  std::ostringstream s;
  s << f.rdbuf();
  return s.str();
}
std::string repo_file(const std::string& rel) { return read_file(bx::source_dir() + "/" + rel); }
void write_file(const fs::path& p, const std::string& text) {
  fs::create_directories(p.parent_path());
  std::ofstream(p, std::ios::binary) << text;
}
template <size_t N>
std::string hex(const std::array<uint8_t, N>& a) {
  return bx::to_hex(a.data(), N);
}
bool has_flag(const std::vector<std::string>& f, const std::string& x) { return std::find(f.begin(), f.end(), x) != f.end(); }

// A fresh temporary directory, removed at the end of the scope.
struct TempDir {
  fs::path path;
  TempDir() {
    std::string t = (fs::temp_directory_path() / "qpow_vectors_XXXXXX").string();
    if (!mkdtemp(t.data())) throw std::runtime_error("mkdtemp failed");
    path = t;
  }
  ~TempDir() {
    std::error_code ec;
    fs::remove_all(path, ec);
  }
};
// The qpow files copied under a temporary root (vectors/qpow/...), with `edit` applied to one of them.
void copy_files(const fs::path& root, const std::string& edited, const std::function<std::string(std::string)>& edit) {
  for (auto& rel : V::vector_files()) {
    std::string text = repo_file(rel);
    if (rel == edited) text = edit(text);
    write_file(root / rel, text);
  }
}
// The line of `text` holding "tcId":id (with the comma, so 7 does not match 70).
size_t line_of(const std::string& text, int id) { return text.find("{\"tcId\":" + std::to_string(id) + ","); }

TEST(QpowVectors, GenerationEqualsTheFilesOnDisk) {
  const auto gen = V::generate_vectors();
  const auto files = V::vector_files();
  ASSERT_EQ(gen.size(), files.size());
  for (auto& rel : files) {
    ASSERT_TRUE(gen.count(rel)) << rel;
    EXPECT_TRUE(repo_file(rel) == gen.at(rel)) << rel << " differs from generate_vectors(): run `bitexact vectors generate --family qpow`";
  }
  EXPECT_EQ(V::generate_vectors(), gen) << "generation is not deterministic";
}

TEST(QpowVectors, CheckVectorsIsClean) {
  const auto problems = V::check_vectors(bx::source_dir());
  for (auto& p : problems) ADD_FAILURE() << p;
}

TEST(QpowVectors, EmbeddedCopiesEqualTheFiles) {
  EXPECT_EQ(V::embedded_field_cases().size(), V::load_field_cases(repo_file("vectors/qpow/field.json")).size());
  EXPECT_EQ(V::embedded_perm_cases().size(), V::load_perm_cases(repo_file("vectors/qpow/permutation.json")).size());
  EXPECT_EQ(V::embedded_byte_hash_cases().size(), V::load_byte_hash_cases(repo_file("vectors/qpow/hash_bytes.json")).size());
  EXPECT_EQ(V::embedded_felt_sponge_cases().size(), V::load_felt_sponge_cases(repo_file("vectors/qpow/felt_sponge.json")).size());
  EXPECT_EQ(V::embedded_mining_cases().size(), V::load_mining_cases(repo_file("vectors/qpow/mining.json")).size());
  EXPECT_EQ(V::embedded_validity_cases().size(), V::load_validity_cases(repo_file("vectors/qpow/validity.json")).size());
}

// The text with the first `from` (at or after the line of tcId `id`, 0: anywhere) replaced by `to` must be
// rejected with an InputError whose message contains `want`.
template <class Loader>
void expect_rejected(Loader load, const std::string& text, int id, const std::string& from, const std::string& to,
                     const std::string& want) {
  std::string t = text;
  const size_t start = id ? line_of(t, id) : 0;
  ASSERT_NE(start, std::string::npos) << "tcId " << id;
  const size_t at = t.find(from, start);
  ASSERT_NE(at, std::string::npos) << from;
  t.replace(at, from.size(), to);
  try {
    load(t);
    ADD_FAILURE() << "accepted: '" << from << "' -> '" << to << "'";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find(want), std::string::npos) << e.what();
    EXPECT_EQ(std::string(e.what()).find('\n'), std::string::npos) << "not one line: " << e.what();
  } catch (const std::exception& e) {
    ADD_FAILURE() << "not an InputError: " << e.what();
  }
}

// The text with field `key` (a string, an array or a literal) removed from the line of tcId `id` must be rejected
// with "missing field 'key'".
template <class Loader>
void expect_missing(Loader load, const std::string& text, int id, const std::string& key) {
  const size_t line = line_of(text, id);
  ASSERT_NE(line, std::string::npos);
  const size_t at = text.find(",\"" + key + "\":", line);
  ASSERT_NE(at, std::string::npos) << key;
  const size_t v = at + key.size() + 4;
  const size_t end = text[v] == '[' ? text.find(']', v) + 1 : text[v] == '"' ? text.find('"', v + 1) + 1 : text.find(',', v);
  expect_rejected(load, text, id, text.substr(at, end - at), "", "missing field '" + key + "'");
}

TEST(QpowVectors, LoadersRejectMalformedInput) {
  const std::string f = repo_file("vectors/qpow/field.json");
  ASSERT_GT(V::load_field_cases(f).size(), 500u);
  expect_rejected(V::load_field_cases, f, 1, "\"a\":\"", "\"a\":\"z", "field 'a'");                    // bad hex
  expect_rejected(V::load_field_cases, f, 1, "\"a\":\"", "\"a\":\"00", "hex digits");                  // wrong length
  expect_missing(V::load_field_cases, f, 1, "out");                                                     // missing field
  expect_missing(V::load_field_cases, f, 1, "b");
  expect_rejected(V::load_field_cases, f, 1, "\"op\":\"add\"", "\"op\":\"div\"", "unknown op 'div'");
  expect_rejected(V::load_field_cases, f, 1, "\"op\":\"add\"", "\"op\":\"sqr\"", "unknown field 'b'");  // unary with b
  expect_rejected(V::load_field_cases, f, 1, "\"flags\":[\"", "\"flags\":[\"no-such-flag\",\"", "not described in notes");
  expect_rejected(V::load_field_cases, f, 0, "bitexact_qpow_field_v1", "bitexact_qpow_field_v2", "schema");
  expect_rejected(V::load_field_cases, f, 0, "\"numberOfTests\": ", "\"numberOfTests\": 1", "numberOfTests");
  expect_rejected(V::load_field_cases, f, 2, "{\"tcId\":2,", "{\"tcId\":1,", "duplicate tcId");
  expect_rejected(V::load_field_cases, f, 0, "{", "[", "not valid JSON");
  expect_rejected(V::load_field_cases, f, 1, "\"out\":\"", "\"out\":\"ffffffff", "hex digits");

  const std::string p = repo_file("vectors/qpow/permutation.json");
  expect_rejected(V::load_perm_cases, p, 1, "\"in\":[\"", "\"in\":[\"0\",\"", "12 words");
  expect_rejected(V::load_perm_cases, p, 1, "\"layer\":\"m4\"", "\"layer\":\"m5\"", "unknown layer");
  expect_rejected(V::load_perm_cases, p, 1, "\"out\":[\"0", "\"out\":[\"g", "bad hex digit");

  const std::string h = repo_file("vectors/qpow/hash_bytes.json");
  expect_rejected(V::load_byte_hash_cases, h, 2, "\"msg\":\"00\"", "\"msg\":\"000\"", "odd number");
  expect_rejected(V::load_byte_hash_cases, h, 1, "\"squeezeTwice\":\"", "\"squeezeTwice\":\"00", "hex digits");
  expect_rejected(V::load_byte_hash_cases, h, 1, "\"msg\":", "\"message\":", "unknown field 'message'");

  const std::string fs = repo_file("vectors/qpow/felt_sponge.json");
  ASSERT_GT(V::load_felt_sponge_cases(fs).size(), 20u);
  expect_rejected(V::load_felt_sponge_cases, fs, 1, "\"op\":\"hashTwice\"", "\"op\":\"hashThrice\"", "unknown op 'hashThrice'");
  expect_rejected(V::load_felt_sponge_cases, fs, 2, "\"felts\":[\"", "\"felts\":[\"0\",\"", "16 hex digits");
  expect_rejected(V::load_felt_sponge_cases, fs, 2, "\"out\":\"", "\"out\":\"00", "hex digits");
  expect_rejected(V::load_felt_sponge_cases, fs, 6, "\"msg\":\"", "\"msg\":\"0", "field 'msg'");
  expect_rejected(V::load_felt_sponge_cases, fs, 8, "\"result\":\"invalid\"", "\"out\":\"" + std::string(64, '0') + "\",\"result\":\"invalid\"",
                  "present on an invalid case");
  expect_rejected(V::load_felt_sponge_cases, fs, 2, "\"felts\":[\"0000000000000000\"", "\"felts\":[\"ffffffff00000001\"", "not a field element");
  expect_missing(V::load_felt_sponge_cases, fs, 2, "out");
  expect_missing(V::load_felt_sponge_cases, fs, 2, "felts");

  const std::string m = repo_file("vectors/qpow/mining.json");
  expect_rejected(V::load_mining_cases, m, 1, "\"header\":\"", "\"header\":\"00", "field 'header'");
  expect_rejected(V::load_mining_cases, m, 1, "\"nonce\":\"0", "\"nonce\":\"x", "bad hex digit");
  expect_missing(V::load_mining_cases, m, 1, "hash");
  expect_rejected(V::load_mining_cases, m, 1, "\"hash\":", "\"hush\":", "unknown field 'hush'");
  expect_missing(V::load_perm_cases, p, 1, "in");
  expect_missing(V::load_byte_hash_cases, h, 1, "squeezeTwice");
  expect_rejected(V::load_mining_cases, m, 1, "\"midstate\":[\"", "\"midstate\":[\"0000000000000000\",\"", "12 words");

  const std::string v = repo_file("vectors/qpow/validity.json");
  expect_missing(V::load_validity_cases, v, 1, "target");
  expect_missing(V::load_validity_cases, v, 1, "chainAccepts");
  expect_rejected(V::load_validity_cases, v, 1, "\"difficulty\":\"1\"", "\"difficulty\":\"01\"", "leading zeros");
  expect_rejected(V::load_validity_cases, v, 1, "\"difficulty\":\"1\"", "\"difficulty\":\"1e3\"", "decimal");
  expect_rejected(V::load_validity_cases, v, 1, "\"chainAccepts\":true", "\"chainAccepts\":1", "chainAccepts");
  expect_rejected(V::load_validity_cases, v, 1, "\"result\":\"valid\"", "\"result\":\"maybe\"", "result");
  expect_rejected(V::load_validity_cases, v, 1, "\"target\":\"", "\"target\":\"0", "hex digits");
}

// One hex digit of one case flipped in a temporary copy: check_vectors names exactly that case (the
// recomputation, the spec's literal where the case is a known answer, and the stale-file line).
void expect_tamper_reported(const std::string& rel, int id, const std::string& field) {
  TempDir tmp;
  copy_files(tmp.path, rel, [&](std::string t) {
    const size_t line = line_of(t, id);
    EXPECT_NE(line, std::string::npos);
    const size_t at = t.find("\"" + field + "\":", line) + field.size() + 4;  // past "field":" or "field":["
    const size_t digit = at + 5;
    t[digit] = t[digit] == '0' ? '1' : '0';
    return t;
  });
  const auto problems = V::check_vectors(tmp.path.string());
  const std::string tag = rel + ": tcId " + std::to_string(id) + ":";
  const std::string stale = rel + ": stale: ";
  bool named = false;
  for (auto& p : problems) {
    if (p.rfind(tag, 0) == 0) named = true;
    else if (p.rfind(stale, 0) == 0) EXPECT_NE(p.find("(tcId " + std::to_string(id) + ")"), std::string::npos) << p;
    else ADD_FAILURE() << "a problem about another case: " << p;
  }
  EXPECT_TRUE(named) << rel << " tcId " << id << " (" << field << ") tampered, not reported";
}

TEST(QpowVectors, TamperedFileReportsExactlyThatCase) {
  const auto mining = V::load_mining_cases(repo_file("vectors/qpow/mining.json"));
  int kv3 = 0, generated = 0;
  for (auto& c : mining) {
    if (c.comment.find("KV3") != std::string::npos) kv3 = c.id;
    if (!has_flag(c.flags, "known-answer") && !has_flag(c.flags, "spec-derived")) generated = c.id;
  }
  ASSERT_TRUE(kv3 && generated);
  expect_tamper_reported("vectors/qpow/mining.json", kv3, "hash");
  expect_tamper_reported("vectors/qpow/mining.json", generated, "hash");
  expect_tamper_reported("vectors/qpow/mining.json", kv3, "midstate");
  expect_tamper_reported("vectors/qpow/field.json", 40, "out");
  expect_tamper_reported("vectors/qpow/permutation.json", 6, "out");
  expect_tamper_reported("vectors/qpow/hash_bytes.json", 3, "squeezeTwice");
  expect_tamper_reported("vectors/qpow/validity.json", 12, "target");
}

TEST(QpowVectors, MissingFileIsAProblem) {
  TempDir tmp;
  copy_files(tmp.path, "", [](std::string t) { return t; });
  fs::remove(tmp.path / "vectors/qpow/validity.json");
  const auto problems = V::check_vectors(tmp.path.string());
  ASSERT_EQ(problems.size(), 1u);
  EXPECT_NE(problems[0].find("vectors/qpow/validity.json"), std::string::npos) << problems[0];
}

// docs/specs/qpow.md §9.4 (a)-(e), copied here independently of the generator's tables.
struct Kat {
  R::Header header;
  Int nonce;
  const char* hash;
  const char* mid;
};
R::Header rep(uint8_t b) {
  R::Header h;
  h.fill(b);
  return h;
}
R::Header seq() {
  R::Header h;
  for (int i = 0; i < 32; ++i) h[i] = uint8_t(i);
  return h;
}
Int p2(int k) { return Int(1) << k; }

TEST(QpowVectors, EverySection94KnownAnswerIsPresent) {
  Int ones = 0;
  for (int i = 0; i < 64; ++i) ones = (ones << 8) + 1;
  const Int kv5 = (Int("0xdeadbeefcafe") << 300) | Int("0x1234567890abcdef");
  const Kat kats[] = {
      {rep(0), 0, "8e64e3d8e0f38f882e8501f9e525df0a95d2e91e9cfc32c9248d756fb07780e2f8fdca2c5a54441e6fcd8d774a5f6aae72f36d1c76bc19f691a0d4f6c607e8cc",
       "8646d336b5a0fccd818ca5954891634549475e8bc9c928bcc469163bcdc4900be4421fafacd59087633f49b998698d664a9067e3883e76da193039e85ea14472203d2d3ee6a8eba8ef5b9ce39bcff072c16a3c8dd5680003d77c52ab5bf7cf1f"},
      {rep(0), 1, "9a18eabb9d910135a553a511209963dfafd2dc62989e2e013c18d626fa17c66fd3899fc3fe2bcc88be8ce416a4bd15e9f157cc5b251112f93938b38617548f6c", nullptr},
      {rep(1), 123, "0c580156318afca56700b7a2cafa4f44277a6c7ea668717984ed26b8169d277521951b73329d898590e953c35d036726becb74bc29d765112ec99b14d0dc5189", nullptr},
      {rep(0xff), p2(64) - 1, "822f70999ee517f610b51bbb79ba88bfbb19cb77b316df25d8aeb4c2682673555e9fc6a588ee96dcce4ff0d2b8d97f4aa89d0f46c97f9027b386d42b14be5100",
       "d1fe93daa1f074090ea440f2b57a0ecf3b7a1f3cb2d48e3943a5a1255658d1b2ebe00ad8f0fe28c0b5618e7c6d6072d1158b7b19f80ec62c329a91c8de5575c2d1637d851a4742122d927735708f3b7d6219c7cf8ef5af51802028c39ccd8f13"},
      {rep(0x2a), Int("0xdeadbeef"), "f974a312ffd7b21ba3e71c499cf178e39d19d178b4483da321da23c48c02e7c874561d93d6e590656905c21a0142a512fe1ebbf69babc904fe1c359f72e5420c", nullptr},
      {rep(1), 1, "e4ef79db80b642a093d7e38e6a6daac7ec1cca7293ddbe3710b4e6781be4add0b93f7e3440626df5bb23b757436787ba8d3fd0a2652e387f8af5bd8a5cc2ce2f",
       "788cf743676a5c85dce1d727e1189b5336e0e019f5a0bf3a806487dd9c3bf83fcb6d7300de1ab5fe7dbe191fa64fc6b795dedc7fe99861beb1a3885303f7467d891eb002a34a0f174be4cf057a87208ae9113e7dc541745ffaeda908097d00f1"},
      {seq(), Int("0x1234567890abcdef"), "7f6c410ce62e7fc54811ad3b8b92664ac0f8b1d2cd6eb163129251146e7ee34d27794aaae1b31eaaeb98ab835bae6a2b9ac4ad6f08c95903e1423f0b865816ff",
       "f6fc848ab2dddc18fd88d1f0ccda99fe27cfa43b8ab9947a6a505b37f02183d35f98f1d3524fb0c6d6de4efd98793e2ef3f205bd1e4d4526c0c9046201e91dd6cd2d28eef32b18dea303ecbc8e98000c3db245e7738f3acabc55f7553023863e"},
      {rep(7), kv5, "eab81cdb33db293aef7e1f10f85cb08d17bc197c284d46a25d9dc57cdb7ba878adf3f5c354318121876795aab08c0941afda21d835383faa2f139c26be31a30a",
       "41885398f5b05a0db7f17cee3f70d242307aecc5bca54c7eb74164c0d6de7e910c0a9b27281c8181d84ddf12fdddf0ee88f8cdf552c0a15e88da4cfbfbf92d228c344261349149db0c0fd0d6a84446527a57b00736d585689ad40597f4fe2abc"},
      {rep(1), 123456789, "715331a49bffbb8c0a42935113041b6d9d17d64952136b7a533627cf6ce280be17a8d61c656543159c68332fb64ab7fe5ec396bb80b71f219ee282ed661a0522", nullptr},
      {rep(0xab), p2(64) - 1, "4933afa670ead2a3e350f9d1a3fda366c85fe6f4bde4746d6e934860a157c658aa69949ec4be51d6b05e7e9ca9dbfc496c1cde141c75501cb5d7778e18f0c193", nullptr},
      {seq(), 987654321, "c4e198c0c86b117719a86d039d4ee239d2484161af628e34639943338d066a2a140d9cf9c51da80625cdc4d6b8d33513d9bed3faa3f164628d0472d1b9aca392", nullptr},
      {rep(0xff), 42, "d637170b8aa94e2d020ae5ccf96149e338cbb5185623f30ec8df4df6497e72f78f9b43cf2475894a4e9d9da8d0e97092f50a8ac0667b247d4c3ccd96194f64d4", nullptr},
      {rep(7), p2(40), "8316c75199697e0a7315def7b4b25038a53403cbb3a6c7f43ba65705cab02057fb30dfdf3e2a663808924035ec77fa3d4223ec9044e65b9fb9bb7313813f6614", nullptr},
      {rep(1), ones, "7200d9e324776e2a2da728ba5d2fb479fc679cc59b7258dfbe38cdc6d528ade6aa42c39f5fe6393cb9abef00a0d9c1612610a894eeaa7323b336a88f8ae7b155", nullptr},
      {seq(), p2(32) - 1, "41a318dbecec5d908c80a7e5950267fb9c2bbcecf87b40ce7f5f713544f97ee7e74b316f6b6b5adb580bcdecd6036e3669044b1510e9be778fcb545eb91c4737", nullptr},
      {seq(), p2(32), "ab898b186ec1150296aaa02cf81c506f1b60f50eb6102c17dd47dd336cdb7532214cb4bf0c5e8504ce9e4f117f34cb71a9792b13143c67822fd3babc416fac2c", nullptr},
      {seq(), p2(64) - 1, "b63dbaebd10aa32e0a40d4bf57bd226579c4bebb0e7374911d7abbb90db0afd06fea3616d51a0b64d87b784df06ab92805adb0fb51ca178b7973f36a582fd596", nullptr},
      {seq(), p2(64), "ddf630a598fe449556301deda7c9fe1c09fb7464ab7336a4432d18d488c406f8607e7b3e6c25783b320e21dfdb2f2c81e04aefe8c036953a3b5160b2165bf460", nullptr},
      {seq(), p2(256) - 1, "885e7a2ab901d94dd06688e3c31ff9992714f5eda4cf4d66dfffbddb2f9aa353f691ff72b7226332c8331aa02fbbe868bb16362c4023d99444377611da02455b", nullptr},
      {seq(), p2(256), "d33b265e75febc3db4abd24e1e849612fe5d20cbeecb5d6f287f29288bed8276867ae5a21ec3604cda9261256d4461018bf3232ed57fba5bbb7685b2700783b9", nullptr},
      {seq(), p2(512) - 1, "ea1bcc6705a0aea6fc71c3aa289fb66864443d7ccba76f2adaf4ba3628f874ecdd3d308b0e738642cd6144247ec3b87ec23b3901ea2040c4c22bf3abd6dc07bb", nullptr},
  };
  const std::vector<V::MiningCase> on_disk = V::load_mining_cases(repo_file("vectors/qpow/mining.json"));
  for (const std::vector<V::MiningCase>* cases : {&on_disk, &V::embedded_mining_cases()}) {
    for (auto& k : kats) {
      const auto nb = R::nonce_be_bytes(k.nonce);
      auto it = std::find_if(cases->begin(), cases->end(), [&](const V::MiningCase& c) { return c.header == k.header && c.nonce_be == nb; });
      ASSERT_NE(it, cases->end()) << "missing: header " << hex(k.header) << " nonce " << hex(nb);
      EXPECT_EQ(hex(it->hash), k.hash) << "tcId " << it->id;
      EXPECT_TRUE(has_flag(it->flags, "known-answer") || has_flag(it->flags, "spec-derived")) << "tcId " << it->id;
      if (k.mid) {
        ASSERT_TRUE(it->has_midstate) << "tcId " << it->id;
        std::string m;
        for (uint64_t w : it->midstate) {
          char b[20];
          std::snprintf(b, sizeof b, "%016llx", static_cast<unsigned long long>(w));
          m += b;
        }
        EXPECT_EQ(m, k.mid) << "tcId " << it->id;
      }
    }
  }
}

// The bug classes the files promise to exercise.
TEST(QpowVectors, FlagsCoverTheBoundaryClasses) {
  std::set<std::string> ff, mf, vf;
  for (auto& c : V::embedded_field_cases()) ff.insert(c.flags.begin(), c.flags.end());
  for (auto& c : V::embedded_mining_cases()) mf.insert(c.flags.begin(), c.flags.end());
  for (auto& c : V::embedded_validity_cases()) vf.insert(c.flags.begin(), c.flags.end());
  for (const char* f : {"known-answer", "spec-derived", "boundary", "lazy-input", "carry", "double-overflow", "borrow", "double-borrow",
                        "lazy-output", "sqr-bit65", "lossy-slip"})
    EXPECT_TRUE(ff.count(f)) << "field.json has no '" << f << "' case";
  for (const char* f : {"midstate", "nonce-zero", "nonce-max", "carry-2^32", "carry-2^64", "carry-2^128", "carry-2^224", "carry-2^256",
                        "high-half", "chain-input"})
    EXPECT_TRUE(mf.count(f)) << "mining.json has no '" << f << "' case";
  for (const char* f : {"difficulty-zero", "difficulty-one", "difficulty-max", "hash-equals-target", "target-hash-minus-1",
                        "target-hash-plus-1", "tie-64", "tie-256", "nonce-zero"})
    EXPECT_TRUE(vf.count(f)) << "validity.json has no '" << f << "' case";
  // A tie on the top 64 bits in both directions, and a nonce-0 hit the chain refuses.
  bool tie_valid = false, tie_invalid = false, zero_hit = false;
  for (auto& c : V::embedded_validity_cases()) {
    if (has_flag(c.flags, "tie-64") && !has_flag(c.flags, "tie-256")) (c.valid ? tie_valid : tie_invalid) = true;
    if (has_flag(c.flags, "nonce-zero") && c.valid && !c.chain_accepts) zero_hit = true;
  }
  EXPECT_TRUE(tie_valid && tie_invalid && zero_hit);
  // Every op of the interface appears.
  std::set<std::string> ops;
  for (auto& c : V::embedded_field_cases()) ops.insert(c.op);
  EXPECT_EQ(ops, (std::set<std::string>{"add", "sub", "mul", "sqr", "neg", "canonical", "sbox", "reduce128"}));
  std::set<std::string> sf, sops;
  for (auto& c : V::embedded_felt_sponge_cases()) sf.insert(c.flags.begin(), c.flags.end()), sops.insert(c.op);
  for (const char* f : {"known-answer", "empty", "block-boundary", "max-felt", "non-canonical-limb"})
    EXPECT_TRUE(sf.count(f)) << "felt_sponge.json has no '" << f << "' case";
  EXPECT_EQ(sops, (std::set<std::string>{"feltSponge", "hashTwice", "rehashToBytes"}));
  std::set<std::string> layers;
  for (auto& c : V::embedded_perm_cases()) layers.insert(c.layer);
  EXPECT_EQ(layers, (std::set<std::string>{"m4", "external", "internal", "permute"}));
}

}  // namespace
