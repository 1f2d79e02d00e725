// q8parity host properties: every variant's per-item code (the kernels' code, run on the CPU) against the
// reference, bitwise with NaNs as a class, over ntok 1..8, row counts that are not multiples of NR = 2 or of
// the 64-row blocks, K from 32 to 16384, random and special inputs; a token's outputs independent of ntok;
// the negative control different on most rows; rmsnorm and the gr read; the exhaustive fp16 decode; the
// build-rule probes; the vector file and malformed copies of it; the oracle.
#include <gtest/gtest.h>
#include <rapidcheck.h>
#include <rapidcheck/gtest.h>

#include "cli/oracle.hpp"
#include "cli/q8parity/q8parity.hpp"
#include "suite/q8parity/vectors.hpp"
#include "property_tests/q8parity/rc_require.hpp"
#include "reference/q8parity/gguf.hpp"

namespace {
using namespace bx;
using namespace bx::q8parity;
using json = nlohmann::json;

constexpr int kCpu = -1;  // the host: every variant's implementation there (make_impl), as selftest runs it

std::vector<size_t> variants_of(Op op, bool with_control = false) {
  std::vector<size_t> v;
  for (size_t i = 0; i < kVariantCount; ++i)
    if (kVariants[i].op == op && (with_control || !kVariants[i].negative)) v.push_back(i);
  return v;
}

// Row counts around NR = 2 and the 64-row block; K as multiples of 32 up to 16384 with rows * K bounded.
rc::Gen<size_t> gen_rows() {
  return rc::gen::weightedOneOf<size_t>({{3, rc::gen::element<size_t>(1, 2, 3, 63, 64, 65, 127, 129)},
                                         {2, rc::gen::inRange<size_t>(1, 300)}});
}
rc::Gen<size_t> gen_k() {
  return rc::gen::weightedOneOf<size_t>({{3, rc::gen::element<size_t>(32, 64, 256, 288, 512, 544, 16384)},
                                         {2, rc::gen::map(rc::gen::inRange<size_t>(1, 129), [](size_t b) { return 32 * b; })}});
}

RC_GTEST_PROP(Q8Matvec, EveryVariantEqualsTheReferenceBitwise, ()) {
  const size_t k = *gen_k();
  const size_t rows = std::min(*gen_rows(), std::max<size_t>(1, (size_t(1) << 16) / k));
  const int ntok = *rc::gen::inRange(1, 9);
  const bool special = *rc::gen::arbitrary<bool>();
  const MatvecInput in = random_matvec(*rc::gen::arbitrary<uint64_t>(), rows, k, ntok, special);
  const auto want = reference_matvec(in);
  for (size_t v : variants_of(Op::matvec)) {
    const Diff d = diff(make_impl(v, kCpu).matvec(in, nullptr), want);
    Q8_RC_REQUIRE(d.same(), kVariants[v].name << " rows " << rows << " K " << k << " ntok " << ntok
                               << (special ? " special" : "") << ": " << describe(d, rows));
  }
}

// Token t's bits in an ntok = T run equal its bits in an ntok = 1 run with only its activations.
RC_GTEST_PROP(Q8Matvec, TokenOutputsDoNotDependOnNtok, ()) {
  const size_t rows = *gen_rows() % 70 + 1, k = 32 * *rc::gen::inRange<size_t>(1, 20);
  const int ntok = *rc::gen::inRange(2, 9);
  const MatvecInput in = random_matvec(*rc::gen::arbitrary<uint64_t>(), rows, k, ntok, *rc::gen::arbitrary<bool>());
  for (size_t v : variants_of(Op::matvec, true)) {
    const auto all = make_impl(v, kCpu).matvec(in, nullptr);
    for (int t = 0; t < ntok; ++t) {
      MatvecInput one = in;
      one.ntok = 1;
      one.x.assign(in.x.begin() + std::ptrdiff_t(size_t(t) * k), in.x.begin() + std::ptrdiff_t(size_t(t + 1) * k));
      const auto single = make_impl(v, kCpu).matvec(one, nullptr);
      const std::vector<float> part(all.begin() + std::ptrdiff_t(size_t(t) * rows), all.begin() + std::ptrdiff_t(size_t(t + 1) * rows));
      const Diff d = diff(part, single);
      Q8_RC_REQUIRE(d.same(), kVariants[v].name << " token " << t << " of " << ntok << ": " << describe(d, 0));
    }
  }
}

// The proof that the comparison can fail: a warp-tree order differs on most rows of ordinary inputs.
TEST(Q8Matvec, NegativeControlDiffersOnMostRows) {
  for (size_t k : {256, 1024, 4096}) {
    const MatvecInput in = random_matvec(k, 300, k, 2, false);
    const Diff d = diff(make_impl(variants_of(Op::matvec, true).back(), kCpu).matvec(in, nullptr), reference_matvec(in));
    ASSERT_TRUE(kVariants[variants_of(Op::matvec, true).back()].negative);
    EXPECT_GE(d.count * 10, d.size * 6) << "K " << k << ": " << describe(d, 300);
  }
}

// An output a variant does not write keeps the poison value, which differs from the reference.
TEST(Q8Matvec, UnwrittenOutputsAreVisible) {
  const MatvecInput in = random_matvec(3, 5, 64, 1, false);
  auto want = reference_matvec(in);
  auto got = want;
  got[4] = kPoison;
  EXPECT_EQ(diff(got, want).count, 1u);
  EXPECT_NE(describe(diff(got, want), 5).find("row 4"), std::string::npos);
}

RC_GTEST_PROP(Q8Rmsnorm, EveryVariantEqualsTheReferenceBitwise, ()) {
  const size_t n = *rc::gen::weightedOneOf<size_t>({{2, rc::gen::element<size_t>(1, 31, 32, 33, 63, 64, 65, 2560)},
                                                    {3, rc::gen::inRange<size_t>(1, 5000)}});
  const NormInput in = random_norm(*rc::gen::arbitrary<uint64_t>(), n, *rc::gen::inRange<size_t>(1, 4),
                                   *rc::gen::arbitrary<bool>(), *rc::gen::arbitrary<bool>());
  const auto want = reference_rmsnorm(in);
  for (size_t v : variants_of(Op::rmsnorm)) {
    const Diff d = diff(make_impl(v, kCpu).rmsnorm(in), want);
    Q8_RC_REQUIRE(d.same(), kVariants[v].name << " n " << n << ": " << describe(d, 0));
  }
}

TEST(Q8Gr, HostVariantsEqualTheFloat32ReferenceAndFloat64WithinNmse) {
  for (auto [shape, ntok] : {std::pair{R::GrShape{4, 64, 32}, 2}, std::pair{R::GrShape{4, 2560, 320}, 1},
                             std::pair{R::GrShape{3, 96, 64}, 3}}) {
    const R::GrInputs in = random_gr(uint64_t(shape.n_embd), shape, ntok);
    const R::GrOutputs want = R::gr_read(in);
    const R::GrOutputs64 want64 = R::gr_read64(in);
    for (size_t v : variants_of(Op::gr)) {
      const q8::GrResult got = make_impl(v, kCpu).gr(in, nullptr);
      EXPECT_TRUE(diff(got.xn, want.xn).same()) << kVariants[v].name << " xn " << describe(diff(got.xn, want.xn), 0);
      EXPECT_TRUE(diff(got.pre, want.pre).same()) << kVariants[v].name << " pre";
      EXPECT_TRUE(diff(got.lo, want.lo).same()) << kVariants[v].name << " lo";
      EXPECT_TRUE(diff(got.gate, want.gate).same()) << kVariants[v].name << " gate";
      EXPECT_TRUE(diff(got.mixed, want.mixed).same()) << kVariants[v].name << " mixed " << describe(diff(got.mixed, want.mixed), 0);
      EXPECT_LE(R::nmse(got.lo, want64.lo), 1e-7);
      EXPECT_LE(R::nmse(got.mixed, want64.mixed), 1e-7);
    }
  }
}

TEST(Q8Block, Fp16DecodeIsExactForEveryEncoding) {
  for (uint32_t h = 0; h < 65536; ++h)
    ASSERT_TRUE(R::same_bits(q8::scale_of(h), R::fp16_to_fp32(uint16_t(h)))) << "fp16 0x" << std::hex << h;
  for (uint32_t h = 0; h < 65536; ++h) {
    const float f = R::fp16_to_fp32(uint16_t(h));
    if (f == f) {
      ASSERT_EQ(R::fp32_to_fp16(f), h) << std::hex << h;
    }
  }
  // every int8 code widens exactly, from every byte position of a packed word
  for (int q = -128; q < 128; ++q)
    for (int pos = 0; pos < 4; ++pos)
      ASSERT_EQ(q8::code_of(q8::code_bias(uint32_t(uint8_t(q)) << (8 * pos)), pos), float(q)) << q << " at " << pos;
}

// The aligned kernels' compile-time unpack (a block at byte 34 i of a stage, i = 0..7, read as two
// nine-quad halves) is the per-thread unpack of the same bytes: every offset, random words.
RC_GTEST_PROP(Q8Block, FixedOffsetUnpackEqualsThePerThreadUnpack, ()) {
  const auto words = *rc::gen::container<std::vector<uint32_t>>(72, rc::gen::arbitrary<uint32_t>());
  for (int i = 0; i < 8; ++i) {
    const int half = i / 4, at = q8::kBlockBytes * i, o = at - 128 * half;  // offset inside the half
    const uint32_t* hw = words.data() + 32 * half;
    const q8::Q8Packed fixed = (i & 1) ? q8::unpack_block_at<2>(hw + o / 4) : q8::unpack_block_at<0>(hw + o / 4);
    const q8::Q8Packed per_thread = q8::load_block(words.data(), size_t(at));
    RC_ASSERT(R::same_bits(fixed.d, per_thread.d));
    for (int j = 0; j < 8; ++j) RC_ASSERT(fixed.q[j] == per_thread.q[j]);
  }
}

TEST(Q8BuildRules, ReferenceAndHostCodeAreNotContractedAndKeepSubnormals) {
  std::string problem;
  EXPECT_TRUE(host_build_rules_hold(&problem)) << problem;
  EXPECT_TRUE(R::built_without_contraction());
  EXPECT_TRUE(R::built_without_ftz());
}

TEST(Q8Vectors, TheFileMatchesTheReferenceAndGeneration) {
  std::vector<std::string> problems = check_vectors(BX_SOURCE_DIR);
  EXPECT_TRUE(problems.empty()) << problems[0];
  const auto tests = load_embedded_matvec();
  ASSERT_GE(tests.size(), 10u);
  for (const auto& t : tests)
    for (size_t v : variants_of(Op::matvec)) {
      const Diff d = diff(make_impl(v, kCpu).matvec(t.in, nullptr), t.y);
      EXPECT_TRUE(d.same()) << kVariants[v].name << " tcId " << t.id << ": " << describe(d, t.in.rows);
    }
  const auto rms = load_embedded_rmsnorm();
  ASSERT_GE(rms.size(), 10u);
  for (const auto& t : rms)
    for (size_t v : variants_of(Op::rmsnorm)) {
      const Diff d = diff(make_impl(v, kCpu).rmsnorm(t.in), t.y);
      EXPECT_TRUE(d.same()) << kVariants[v].name << " rmsnorm tcId " << t.id << ": " << describe(d, 0);
    }
}

TEST(Q8Vectors, MalformedFilesAreOneClearError) {
  const std::string good = generate_matvec_text();
  auto error_of = [](const std::string& text) {
    try {
      parse_matvec("m.json", text);
    } catch (const InputError& e) {
      return std::string(e.what());
    }
    return std::string("(accepted)");
  };
  auto edit = [&](const std::string& from, const std::string& to) {
    std::string t = good;
    const auto at = t.find(from);
    EXPECT_NE(at, std::string::npos) << from;
    return t.replace(at, from.size(), to);
  };
  EXPECT_NE(error_of(good.substr(0, good.size() / 2)).find("not valid JSON"), std::string::npos);
  EXPECT_NE(error_of(edit("\"rows\":3", "\"rows\":4")).find("field 'weights'"), std::string::npos);
  EXPECT_NE(error_of(edit("\"comment\"", "\"comentary\"")).find("unknown field"), std::string::npos);
  EXPECT_NE(error_of(edit("\"weights\":\"", "\"weights\":\"zz")).find("tcId 1"), std::string::npos);
  EXPECT_NE(error_of(edit("\"k\":64", "\"k\":65")).find("multiple of 32"), std::string::npos);
  EXPECT_NE(error_of(edit("[\"CodeExtremes\",\"PackedSign\"]", "[\"NoSuchFlag\"]")).find("not described"), std::string::npos);
  EXPECT_EQ(error_of(good), "(accepted)");
}

json ask(const std::string& line) {
  static Oracle oracle(DeviceSelection{true, {}});
  return json::parse(oracle.reply(line));
}

TEST(Q8Oracle, MatvecRmsnormAndGrAnswerWithEveryImplementation) {
  const MatvecInput in = random_matvec(9, 3, 64, 2, true);
  const json r = ask(json({{"op", "q8.matvec"}, {"rows", 3}, {"k", 64}, {"ntok", 2},
                           {"weights", to_hex(in.w.data(), in.w.size())}, {"x", floats_hex(in.x)}})
                         .dump());
  ASSERT_TRUE(r.contains("ref")) << r.dump();
  EXPECT_EQ(r["ref"], floats_hex(reference_matvec(in)));
  EXPECT_TRUE(r["agree"]) << r.dump();
  EXPECT_EQ(r["impl"].size(), variants_of(Op::matvec, true).size());
  for (auto& [name, hex] : r["impl"].items()) EXPECT_EQ(hex.get<std::string>().size(), 2u * 3 * 2 * 4) << name;

  const NormInput n = random_norm(4, 100, 1, true, false);
  const json rn = ask(json({{"op", "q8.rmsnorm"}, {"x", floats_hex(n.x)}, {"w", floats_hex(n.w)}, {"eps", "358637bd"}}).dump());
  EXPECT_TRUE(rn["agree"]) << rn.dump();
  EXPECT_EQ(rn["impl"].size(), variants_of(Op::rmsnorm).size());

  const R::GrInputs g = random_gr(5, R::GrShape{2, 32, 32}, 1);
  const json rg = ask(json({{"op", "q8.gr_read"}, {"hc", 2}, {"n_embd", 32}, {"hc_lr", 32}, {"ntok", 1}, {"r", floats_hex(g.r)},
                            {"w_norm", floats_hex(g.w_norm)}, {"w_down", to_hex(g.w_down.data(), g.w_down.size())},
                            {"w_up", to_hex(g.w_up.data(), g.w_up.size())}, {"eps", "358637bd"}})
                          .dump());
  EXPECT_TRUE(rg["agree_exact"]) << rg.dump();
  EXPECT_EQ(rg["impl"].size(), variants_of(Op::gr).size());
}

TEST(Q8Oracle, ShapeMismatchesAreErrorLines) {
  auto err = [](const json& j) { return j.contains("error") ? j["error"].get<std::string>() : std::string("(no error)"); };
  const std::string w(3 * 2 * 34 * 2, '0'), x(64 * 4 * 2, '0');
  EXPECT_NE(err(ask(json({{"op", "q8.matvec"}, {"rows", 3}, {"k", 64}, {"ntok", 2}, {"weights", w}, {"x", x}}).dump())).find("field 'x'"),
            std::string::npos);
  EXPECT_NE(err(ask(json({{"op", "q8.matvec"}, {"rows", 3}, {"k", 60}, {"ntok", 1}, {"weights", w}, {"x", x}}).dump())).find("multiple of 32"),
            std::string::npos);
  EXPECT_NE(err(ask(json({{"op", "q8.matvec"}, {"rows", 3}, {"k", 64}, {"ntok", 9}, {"weights", w}, {"x", x}}).dump())).find("ntok"),
            std::string::npos);
  EXPECT_NE(err(ask(json({{"op", "q8.rmsnorm"}, {"x", "0000"}, {"w", ""}, {"eps", "358637bd"}}).dump())).find("field 'x'"),
            std::string::npos);
  EXPECT_NE(err(ask(json({{"op", "q8.rmsnorm"}, {"x", "00000000"}, {"w", ""}, {"eps", "3586"}}).dump())).find("field 'eps'"),
            std::string::npos);
}

// vectors/q8parity/tiny.gguf was written by the gguf Python package (llama.cpp's writer and Q8_0 quantizer,
// vectors/q8parity/make_tiny_gguf.py): the reader finds its tensors, every Q8_0 block decodes to the
// package's own dequantisation, and every matvec variant equals the reference on its weights and tokens.
namespace G = bx::ref::gguf;
const std::string kTiny = std::string(BX_SOURCE_DIR) + "/vectors/q8parity/tiny.gguf";

TEST(Q8Gguf, ReadsAFileWrittenByTheGgufPackage) {
  const G::File f = G::read(kTiny);
  EXPECT_EQ(f.version, 3u);
  ASSERT_EQ(f.tensors.size(), 5u);
  const G::Q8Matrix m = G::q8_matrix(f, "blk.0.ffn_down.weight");
  EXPECT_EQ(m.rows, 67u);
  EXPECT_EQ(m.k, 256u);
  const G::Activations deq = G::activations(f, "blk.0.ffn_down.deq");
  ASSERT_EQ(deq.x.size(), m.rows * m.k);
  for (size_t b = 0; b < m.rows * m.k / 32; ++b) {
    float out[32];
    R::dequantize_block(&m.blocks[b * 34], out);
    for (int i = 0; i < 32; ++i) ASSERT_TRUE(R::same_bits(out[i], deq.x[b * 32 + size_t(i)])) << "block " << b << " code " << i;
  }
  // the file holds a zero scale and a subnormal one (row 3 block 0, row 5 block 1)
  EXPECT_EQ(m.blocks[3 * 8 * 34] | m.blocks[3 * 8 * 34 + 1], 0);
  EXPECT_EQ(m.blocks[(5 * 8 + 1) * 34 + 1] & 0x7c, 0);
  const G::Activations x = G::activations(f, "tokens.f32"), x16 = G::activations(f, "tokens.f16");
  EXPECT_EQ(x.tokens, 3u);
  EXPECT_EQ(x16.tokens, 2u);
  for (const G::Activations* a : {&x, &x16}) {
    MatvecInput in;
    in.rows = m.rows, in.k = m.k, in.ntok = int(a->tokens), in.w = m.blocks, in.x = a->x;
    const auto want = reference_matvec(in);
    for (size_t v : variants_of(Op::matvec)) EXPECT_TRUE(diff(make_impl(v, kCpu).matvec(in, nullptr), want).same()) << kVariants[v].name;
  }
}

TEST(Q8Gguf, MalformedFilesAreOneErrorNamingFileTensorAndOffset) {
  const G::File good = G::read(kTiny);
  const std::vector<uint8_t>& b = good.bytes;
  auto error_of = [](std::vector<uint8_t> bytes, const std::string& tensor = "") {
    try {
      const G::File f = G::parse(std::move(bytes), "bad.gguf");
      if (!tensor.empty()) G::q8_matrix(f, tensor);
    } catch (const G::GgufError& e) {
      EXPECT_EQ(std::string(e.what()).find('\n'), std::string::npos);
      return std::string(e.what());
    }
    return std::string("(accepted)");
  };
  auto contains = [](const std::string& s, const char* part) { return s.find(part) != std::string::npos; };
  // truncated anywhere in the header, the tensor infos or the data
  for (size_t cut : {size_t(0), size_t(3), size_t(7), size_t(20), size_t(100), size_t(300), size_t(good.data_start - 1),
                     size_t(good.data_start + 100),
                     size_t(good.find("blk.1.attn_q.weight").data_offset + 339)}) {
    const std::string e = error_of(std::vector<uint8_t>(b.begin(), b.begin() + std::ptrdiff_t(cut)));
    EXPECT_TRUE(contains(e, "bad.gguf: ") && (contains(e, "truncated") || contains(e, "past the end"))) << cut << ": " << e;
  }
  auto patched = [&](size_t at, std::vector<uint8_t> with) {
    std::vector<uint8_t> c = b;
    std::copy(with.begin(), with.end(), c.begin() + std::ptrdiff_t(at));
    return c;
  };
  auto le64 = [](uint64_t v) {
    std::vector<uint8_t> o(8);
    for (int i = 0; i < 8; ++i) o[size_t(i)] = uint8_t(v >> (8 * i));
    return o;
  };
  EXPECT_TRUE(contains(error_of(patched(0, {'G', 'G', 'U', 'X'})), "offset 0: not a GGUF file"));
  EXPECT_TRUE(contains(error_of(patched(4, {1, 0, 0, 0})), "version 1"));
  EXPECT_TRUE(contains(error_of(patched(8, le64(uint64_t(1) << 40))), "truncated or corrupt: tensor count"));
  // a tensor info's fields: name (8 + len), n_dims (4), dims (8 each), type (4), offset (8)
  const G::Tensor& t1 = good.find("blk.1.attn_q.weight");
  const size_t dims_at = t1.info_offset + 8 + t1.name.size() + 4, type_at = dims_at + 16, off_at = type_at + 4;
  const uint64_t rel = t1.data_offset - good.data_start;
  std::string e = error_of(patched(off_at, le64(rel + 1)));
  EXPECT_TRUE(contains(e, "tensor 'blk.1.attn_q.weight'") && contains(e, "not a multiple of the alignment")) << e;
  e = error_of(patched(dims_at + 8, le64(50)));  // 50 rows: data past the end of the file
  EXPECT_TRUE(contains(e, "tensor 'blk.1.attn_q.weight'") && contains(e, "past the end") && contains(e, "offset")) << e;
  e = error_of(patched(dims_at, le64(48)));  // K = 48 is not a multiple of the Q8_0 block
  EXPECT_TRUE(contains(e, "tensor 'blk.1.attn_q.weight'") && contains(e, "not a multiple of Q8_0")) << e;
  e = error_of(b, "tokens.f32");  // a wrong type
  EXPECT_TRUE(contains(e, "tensor 'tokens.f32'") && contains(e, "expected Q8_0") && contains(e, "offset")) << e;
  e = error_of(b, "no.such.tensor");
  EXPECT_TRUE(contains(e, "no tensor named 'no.such.tensor'")) << e;
  EXPECT_EQ(error_of(b, "blk.1.attn_q.weight"), "(accepted)");
  EXPECT_TRUE(contains(error_of(patched(type_at, {2, 0, 0, 0}), "blk.1.attn_q.weight"), "type 2 (Q4_0), expected Q8_0"));
}

}  // namespace
