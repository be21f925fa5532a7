// Strategy: mmap the whole file; read() walks a pointer through the mapping (original #2).
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common.hpp"

class MmapReader {
 public:
  explicit MmapReader(const char* path) {
    int fd = open(path, O_RDONLY);
    if (fd < 0) readbytes::io_error("cannot open", path);
    struct stat st;
    if (fstat(fd, &st) != 0) readbytes::io_error("cannot stat", path);
    size_ = static_cast<size_t>(st.st_size);
    if (size_ > 0) {  // mmap of length 0 is an error; an empty file simply has no bytes
      void* p = mmap(nullptr, size_, PROT_READ, MAP_PRIVATE, fd, 0);
      if (p == MAP_FAILED) readbytes::io_error("cannot mmap", path);
      base_ = static_cast<const unsigned char*>(p);
    }
    close(fd);
    next_ = base_;
    end_ = base_ + size_;
  }
  ~MmapReader() {
    if (base_) munmap(const_cast<unsigned char*>(base_), size_);
  }

  int read() { return next_ != end_ ? *next_++ : -1; }

 private:
  const unsigned char* base_ = nullptr;
  size_t size_ = 0;
  const unsigned char* next_;
  const unsigned char* end_;
};

int main(int argc, char** argv) { return readbytes::run<MmapReader>(argc, argv); }
