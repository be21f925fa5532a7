// Peer "cereal": the C++ cereal library's PortableBinary archives round-trip each record through a std::stringstream (its own format, checked by the round trip).
#include "common.hpp"

#include <array>
#include <sstream>

#include <cereal/archives/portable_binary.hpp>
#include <cereal/types/array.hpp>
#include <cereal/types/string.hpp>

// The record as a cereal user would declare it (owning its name).
struct CerealRecord {
  std::uint32_t id;
  std::uint8_t kind;
  std::int16_t delta;
  std::int64_t stamp;
  bool active;
  float ratio;
  double value;
  std::array<std::uint16_t, 4> dims;
  std::string name;
  template <class Archive> void serialize(Archive& ar) { ar(id, kind, delta, stamp, active, ratio, value, dims, name); }
};

int main(int argc, char** argv) {
  ser::Job job = ser::parse_args(argc, argv);
  std::vector<CerealRecord> records;
  for (const auto& r : job.records)
    records.push_back({r.id, r.kind, r.delta, r.stamp, r.active, r.ratio, r.value,
                       {r.dims[0], r.dims[1], r.dims[2], r.dims[3]}, std::string(r.name)});
  std::uint64_t checksum = 0, before = g_new_bytes;
  auto t0 = ser::Clock::now();
  std::size_t k = 0;
  for (std::uint64_t n = 0; n < job.ops; ++n) {
    std::stringstream ss;
    {
      cereal::PortableBinaryOutputArchive out(ss);
      out(records[k]);
    }
    CerealRecord back;
    {
      cereal::PortableBinaryInputArchive in(ss);
      in(back);
    }
    ser::Record view{back.id, back.kind, back.delta, back.stamp, back.active, back.ratio, back.value,
                     {back.dims[0], back.dims[1], back.dims[2], back.dims[3]}, back.name};
    checksum = ser::fold(checksum, view);
    if (++k == records.size()) k = 0;
  }
  long long ns = ser::ns_since(t0);
  ser::report_checksum(job.ops, checksum, ns, double(g_new_bytes - before) / job.ops);
  return 0;
}
