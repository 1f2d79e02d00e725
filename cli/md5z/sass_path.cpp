#include "cli/md5z/sass_path.hpp"

#include "gpu/md5z/search.hpp"

#include <unistd.h>

#include <cstdio>
#include <deque>
#include <limits>
#include <map>
#include <regex>
#include <sstream>
#include <vector>

namespace bx::md5z {
namespace {

struct Ins {
  unsigned addr;
  std::string text;
};

std::string run(const std::string& cmd) {
  std::string out;
  FILE* p = popen(cmd.c_str(), "r");
  if (!p) return out;
  char buf[4096];
  size_t n;
  while ((n = fread(buf, 1, sizeof buf, p)) > 0) out.append(buf, n);
  pclose(p);
  return out;
}

}  // namespace

SassPath sass_loop_shortest_path(const std::string& fn) {
  std::vector<Ins> ins;
  std::map<std::string, size_t> label_at;
  std::vector<std::string> pending;
  static const std::regex ins_re(R"(^\s*/\*([0-9a-f]{4,})\*/\s+(.*?)\s*;)");
  static const std::regex label_re(R"(^\s*(\.L_x_\d+):)");
  std::istringstream in(fn);
  std::string line;
  std::smatch m;
  while (std::getline(in, line)) {
    if (std::regex_search(line, m, label_re)) pending.push_back(m[1]);
    else if (std::regex_search(line, m, ins_re)) {
      for (auto& l : pending) label_at[l] = ins.size();
      pending.clear();
      ins.push_back({unsigned(std::stoul(m[1], nullptr, 16)), m[2]});
    }
  }
  const size_t n = ins.size();
  std::map<unsigned, size_t> at_addr;
  for (size_t i = 0; i < n; ++i) at_addr[ins[i].addr] = i;
  static const std::regex bra_re(R"(\bBRA(\.\w+)*\s+(`\((\.L_x_\d+)\)|0x([0-9a-f]+)))");
  std::vector<long> target(n, -1);
  std::vector<bool> cond(n, false), stop(n, false);
  for (size_t i = 0; i < n; ++i) {
    const std::string& t = ins[i].text;
    cond[i] = !t.empty() && t[0] == '@';
    if (std::regex_search(t, m, bra_re)) {
      if (m[3].matched && label_at.count(m[3])) target[i] = long(label_at[m[3]]);
      else if (m[4].matched && at_addr.count(unsigned(std::stoul(m[4], nullptr, 16))))
        target[i] = long(at_addr[unsigned(std::stoul(m[4], nullptr, 16))]);
    }
    stop[i] = !cond[i] && (target[i] >= 0 || t.find("EXIT") != std::string::npos || t.find("RET") == 0);
  }
  // The main loop: the back-edge spanning the most instructions.
  long head = -1, edge = -1;
  for (size_t i = 0; i < n; ++i)
    if (target[i] >= 0 && size_t(target[i]) < i && (edge < 0 || long(i) - target[i] > edge - head)) head = target[i], edge = long(i);
  if (edge < 0) return {};
  // Shortest path (in instructions) from head to the back-edge, staying inside the loop.
  std::vector<int> dist(n, std::numeric_limits<int>::max());
  std::vector<long> prev(n, -1);
  std::deque<size_t> q;
  dist[size_t(head)] = 1;
  q.push_back(size_t(head));
  while (!q.empty()) {
    const size_t i = q.front();
    q.pop_front();
    if (long(i) == edge) continue;
    auto relax = [&](long j) {
      if (j < head || j > edge) return;
      if (dist[size_t(j)] > dist[i] + 1) dist[size_t(j)] = dist[i] + 1, prev[size_t(j)] = long(i), q.push_back(size_t(j));
    };
    if (!stop[i]) relax(long(i) + 1);
    if (target[i] >= 0) relax(target[i]);
  }
  SassPath path;
  if (dist[size_t(edge)] == std::numeric_limits<int>::max()) return path;
  static const std::regex op_re(R"(^(@!?U?P\w+\s+)?([A-Z0-9]+))");
  for (long i = edge; i >= 0; i = prev[size_t(i)]) {
    ++path.total;
    std::smatch om;
    const std::string& t = ins[size_t(i)].text;
    if (!std::regex_search(t, om, op_re)) continue;
    const std::string op = om[2];
    if (op.rfind("IMAD", 0) == 0 || op == "IMUL" || op == "VIADD" || op == "VIMNMX") ++path.fma;  // VIADD: sm_90 FMA-pipe add
    else if (op == "IADD3" || op == "LOP3" || op == "SHF" || op == "LEA" || op == "ISETP" || op == "PRMT" || op == "SEL" ||
             op == "FLO" || op == "MOV" || op == "IABS" || op == "IMNMX" || op == "POPC" || op == "BREV" || op == "LOP" ||
             op == "IADD" || op == "SHL" || op == "SHR")
      ++path.alu;
    if (i == head) break;
  }
  return path;
}

std::map<int, SassPath> sass_common_paths() {
  std::map<int, SassPath> out;
  std::string tool = run("command -v cuobjdump 2>/dev/null");
  if (tool.empty() && !run("ls /usr/local/cuda/bin/cuobjdump 2>/dev/null").empty()) tool = "/usr/local/cuda/bin/cuobjdump";
  while (!tool.empty() && (tool.back() == '\n' || tool.back() == ' ')) tool.pop_back();
  if (tool.empty()) return out;
  char self[4096];
  const ssize_t len = readlink("/proc/self/exe", self, sizeof self - 1);  // this binary, not the popen shell
  if (len <= 0) return out;
  self[len] = 0;
  const std::string sass = run(tool + " -sass '" + self + "' 2>/dev/null");
  static const std::regex fn_re(R"(Function : (\S*k_md5z_searchILi(\d+)EE\S*))");  // K = variant index
  auto begin = std::sregex_iterator(sass.begin(), sass.end(), fn_re);
  std::vector<std::pair<size_t, int>> starts;
  for (auto it = begin; it != std::sregex_iterator(); ++it) starts.push_back({size_t(it->position()), std::stoi((*it)[2])});
  for (size_t k = 0; k < starts.size(); ++k) {
    const size_t b = starts[k].first;
    size_t e = sass.find("Function :", b + 10);
    const std::string body = sass.substr(b, e == std::string::npos ? std::string::npos : e - b);
    SassPath& sp = out[starts[k].second] = sass_loop_shortest_path(body);
    sp.candidates = md5::with_variant(md5::Variant(starts[k].second), [](auto c) { return int(decltype(c)::lanes); });
  }
  return out;
}

}  // namespace bx::md5z
