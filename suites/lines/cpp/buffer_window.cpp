// Strategy: a buffer-window class over read(2) (128 KiB reads, grows for long lines); memchr finds each line, handed out as a std::string_view and appended to a 128 KiB output buffer written with write(2) when full.
#include <unistd.h>
#include <fcntl.h>

#include <cerrno>
#include <cstring>
#include <iostream>
#include <stdexcept>
#include <string>
#include <string_view>
#include <system_error>
#include <vector>

namespace {

void write_all(int fd, const char *p, size_t n) {
    while (n > 0) {
        ssize_t w = ::write(fd, p, n);
        if (w < 0) {
            if (errno == EINTR) continue;
            throw std::system_error(errno, std::generic_category(), "write error");
        }
        p += w;
        n -= static_cast<size_t>(w);
    }
}

// The buffered data is window(); extend() reads more behind it, release() drops lines from the front.
class LineReader {
public:
    explicit LineReader(const char *path) : buf_(2 * kReadSize) {
        fd_ = ::open(path, O_RDONLY);
        if (fd_ < 0) throw std::system_error(errno, std::generic_category(), path);
    }
    ~LineReader() { ::close(fd_); }
    LineReader(const LineReader &) = delete;
    LineReader &operator=(const LineReader &) = delete;

    // The next line with its '\n' (a last line may lack it); false at the end of the input.
    bool next(std::string_view &line) {
        start_ += released_;  // the previous line is done with
        released_ = 0;
        size_t scanned = 0;   // bytes after start_ known to hold no '\n'
        for (;;) {
            size_t avail = end_ - start_;
            if (scanned < avail) {
                const char *from = buf_.data() + start_;
                const void *nl = std::memchr(from + scanned, '\n', avail - scanned);
                if (nl != nullptr) return take(line, static_cast<const char *>(nl) - from + 1);
                scanned = avail;
            }
            if (!extend()) return avail > 0 && take(line, avail);
        }
    }

private:
    static constexpr size_t kReadSize = 128 * 1024;

    bool take(std::string_view &line, size_t len) {
        line = std::string_view(buf_.data() + start_, len);
        released_ = len;
        return true;
    }

    // Move the unread tail to the front, grow when a full read would not fit, read once.
    bool extend() {
        if (start_ > 0) {
            std::memmove(buf_.data(), buf_.data() + start_, end_ - start_);
            end_ -= start_;
            start_ = 0;
        }
        if (buf_.size() - end_ < kReadSize) buf_.resize(buf_.size() * 2);
        for (;;) {
            ssize_t r = ::read(fd_, buf_.data() + end_, kReadSize);
            if (r < 0 && errno == EINTR) continue;
            if (r < 0) throw std::system_error(errno, std::generic_category(), "read error");
            end_ += static_cast<size_t>(r);
            return r > 0;
        }
    }

    int fd_;
    std::vector<char> buf_;
    size_t start_ = 0, end_ = 0, released_ = 0;
};

class Output {
public:
    Output() { buf_.reserve(kSize); }
    void put(std::string_view s) {
        if (buf_.size() + s.size() > kSize) {
            flush();
            if (s.size() > kSize) return write_all(STDOUT_FILENO, s.data(), s.size());
        }
        buf_.append(s);
    }
    void flush() {
        write_all(STDOUT_FILENO, buf_.data(), buf_.size());
        buf_.clear();
    }

private:
    static constexpr size_t kSize = 128 * 1024;
    std::string buf_;
};

}  // namespace

int main(int argc, char **argv) {
    if (argc != 2) {
        std::cerr << "usage: " << argv[0] << " FILE\n";
        return 2;
    }
    try {
        LineReader in(argv[1]);
        Output out;
        std::string_view line;
        while (in.next(line)) out.put(line);
        out.flush();
    } catch (const std::exception &e) {
        std::cerr << e.what() << '\n';
        return 1;
    }
    return 0;
}
