// Serializer design "template, stack buffer": ScopeBuffer's design, a 32-byte stack array that grows onto the heap (to 2 x 32 + 16 bytes) when the record overflows it.
#include "common.hpp"

// D's std.internal.scopebuffer in C++: starts in the caller's array, grows to 2n + 16 on overflow.
class StackBuffer {
 public:
  StackBuffer(std::uint8_t* buf, std::size_t n) : p_(buf), cap_(n) {}
  StackBuffer(const StackBuffer&) = delete;
  StackBuffer& operator=(const StackBuffer&) = delete;
  ~StackBuffer() {
    if (heap_) delete[] p_;
  }
  void put(std::uint8_t b) {
    if (len_ == cap_) grow();
    p_[len_++] = b;
  }
  const std::uint8_t* data() const { return p_; }
  std::size_t size() const { return len_; }

 private:
  void grow() {
    std::size_t cap = cap_ * 2 + 16;
    auto* q = new std::uint8_t[cap];
    std::memcpy(q, p_, len_);
    if (heap_) delete[] p_;
    p_ = q;
    cap_ = cap;
    heap_ = true;
  }
  std::uint8_t* p_;
  std::size_t cap_, len_ = 0;
  bool heap_ = false;
};

int main(int argc, char** argv) {
  return ser::run_ser(argc, argv, [](const ser::Record& r, std::uint64_t n, ser::SerSink& sink) {
    std::uint8_t local[32];  // too small for the record, as in the seed
    StackBuffer w(local, sizeof local);
    ser::write(w, r);
    sink.consume(n, w.data(), w.size());
  });
}
