// A C++17 game host written from generated/bridge.h alone (issue 40): it lays out the
// bridge, stamps its identity, produces it into a new mapping (a file such as
// /dev/shm/NAME on Linux, a named section such as Local\NAME on Windows), then, once a
// millisecond until told to stop: publishes a tick, writes the log ring, serves every row's
// mailbox (a malformed request gets an error answer), drains every row's log queue, takes
// every bot row's draw lists, frees rows whose client said goodbye or is hung (the watch's
// hung rule), reloads once, and at the end says it is exiting. Every protocol step is a
// call of the header; this file has no protocol logic of its own.
//
//   host MAPPING STOP_FILE MAX_MS
//
// It prints `host cpp: ready` once the bridge is produced, and when STOP_FILE exists (or
// MAX_MS passed: a failure) and every row is free again (or 3 s more passed), one line:
//
//   host cpp: T ticks, A answered, Q drained, D lists taken, H hung freed, R reloads,
//   0 wrong, 0 stuck rows, 0 leaked pads
//
// and exits 1 unless every count of activity is above 0 and the last three are 0. "wrong"
// counts what a client wrote that breaks the torture's contract (tests/torture/PROTOCOLS.md:
// a log entry out of order, a torn or stale draw list, a request neither `req K` nor
// malformed on purpose) and any helper's error; "stuck rows" the rows not free at the end;
// "leaked pads" the pads still bound at the end, when no row is in use. Its clients are the
// torture's (tests/torture/protocols.c and protocols.py) and tests/host_cpp.rs's bot.
//
// Built with g++, clang++ and x86_64-w64-mingw32-g++:
//   -std=c++17 -Wall -Wextra -Werror -pedantic -Wold-style-cast -Wuseless-cast (g++)
//   -Wzero-as-null-pointer-constant -O2 -Igenerated

#ifdef _WIN32
#include <windows.h>
#else
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#endif

#include <array>
#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "bridge.h"

namespace {

constexpr uint32_t kRows = IBF_MAX_CLIENTS;
// Hung rows get the session's hung_ms (1 s) after the stop before the host gives up.
constexpr uint64_t kDrainAfterStopNs = 3000000000ULL;

// The host's own monotonic clock (CLOCK_MONOTONIC; QueryPerformanceCounter in ns) and Unix
// time, in ns: the identity's clock pair and the hung rule's clock.
#ifdef _WIN32
uint64_t mono_ns() {
    LARGE_INTEGER t, f;
    QueryPerformanceCounter(&t);
    QueryPerformanceFrequency(&f);
    const uint64_t ticks = static_cast<uint64_t>(t.QuadPart);
    const uint64_t hz = static_cast<uint64_t>(f.QuadPart);
    return ticks / hz * 1000000000ULL + ticks % hz * 1000000000ULL / hz;
}

int64_t unix_ns() {
    FILETIME ft;
    GetSystemTimePreciseAsFileTime(&ft);
    const uint64_t t = (uint64_t{ft.dwHighDateTime} << 32) | ft.dwLowDateTime;
    return (static_cast<int64_t>(t) - 116444736000000000LL) * 100;
}

void nap() { Sleep(1); }

uint32_t process_id() { return GetCurrentProcessId(); }
#else
uint64_t mono_ns() {
    timespec t{};
    clock_gettime(CLOCK_MONOTONIC, &t);
    return static_cast<uint64_t>(t.tv_sec) * 1000000000ULL + static_cast<uint64_t>(t.tv_nsec);
}

int64_t unix_ns() {
    timespec t{};
    clock_gettime(CLOCK_REALTIME, &t);
    return int64_t{t.tv_sec} * 1000000000LL + t.tv_nsec;
}

void nap() {
    timespec t{0, 500000};
    nanosleep(&t, nullptr);
}

uint32_t process_id() { return static_cast<uint32_t>(getpid()); }
#endif

bool exists(const std::string &path) {
    std::FILE *f = std::fopen(path.c_str(), "rb");
    if (f == nullptr) {
        return false;
    }
    std::fclose(f);
    return true;
}

// New shared memory of `len` bytes under `name`: a new owner-only file on Linux; a named
// section on Windows, opened and produced over when a held one exists (docs/hosts.md, "Start-up on
// Windows": produce writes a generation past the one its holders saw).
unsigned char *create_mapping(const std::string &name, size_t len) {
#ifdef _WIN32
    std::wstring wide(name.size() + 1, L'\0');
    const int n = MultiByteToWideChar(CP_UTF8, 0, name.c_str(), -1, &wide[0], static_cast<int>(wide.size()));
    if (n <= 0) {
        std::fprintf(stderr, "host cpp: the name %s is not UTF-8\n", name.c_str());
        return nullptr;
    }
    const uint64_t size = len;
    HANDLE h = CreateFileMappingW(INVALID_HANDLE_VALUE, nullptr, PAGE_READWRITE, static_cast<DWORD>(size >> 32),
                                  static_cast<DWORD>(size & 0xFFFFFFFFU), wide.c_str());
    if (h == nullptr) {
        std::fprintf(stderr, "host cpp: cannot create the section %s (error %lu)\n", name.c_str(), GetLastError());
        return nullptr;
    }
    if (GetLastError() == ERROR_ALREADY_EXISTS) {
        std::fprintf(stderr, "host cpp: %s is still held: producing over it\n", name.c_str());
    }
    void *view = MapViewOfFile(h, FILE_MAP_READ | FILE_MAP_WRITE, 0, 0, len);
    if (view == nullptr) {
        std::fprintf(stderr, "host cpp: cannot map %s (error %lu)\n", name.c_str(), GetLastError());
        return nullptr;
    }
    return static_cast<unsigned char *>(view);
#else
    const int fd = open(name.c_str(), O_RDWR | O_CREAT | O_EXCL, 0600);
    if (fd < 0 || fchmod(fd, 0600) != 0 || ftruncate(fd, static_cast<off_t>(len)) != 0) {
        std::perror(("host cpp: " + name).c_str());
        return nullptr;
    }
    void *view = mmap(nullptr, len, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    close(fd);
    if (view == MAP_FAILED) {
        std::perror(("host cpp: mmap " + name).c_str());
        return nullptr;
    }
    return static_cast<unsigned char *>(view);
#endif
}

// What the host keeps per row: its log queue's order, its draw reader and the last list.
struct Row {
    bool have_k = false;
    uint64_t last_k = 0;
    ibf_draw_reader reader{};
    uint32_t last_list = 0;
};

struct Counts {
    uint64_t ticks = 0, answered = 0, drained = 0, lists = 0, hung = 0, reloads = 0;
    uint64_t wrong = 0, stuck = 0, leaked = 0, goodbyes = 0, malformed = 0;
};

class Host {
public:
    bool start(const std::string &name) {
        static const ibf_geometry_value geometry[] = {
            {"bridge_header.ring_slots", 16},
            {"mailbox.request_capacity", 2048},
            {"mailbox.response_capacity", 8192},
        };
        constexpr size_t n = sizeof geometry / sizeof geometry[0];
        ibf_attach_error err{};
        size_t len = 0;
        // 1. Lay out (a null buffer asks for the size), 2. identity, 3. produce.
        (void)ibf_lay_out(nullptr, 0, geometry, n, 1, &len, &err);
        std::vector<unsigned char> image(len);
        int rc = ibf_lay_out(image.data(), image.size(), geometry, n, 1, &len, &err);
        if (rc != IBF_PRODUCE_OK) {
            return failed("lay out", rc, err);
        }
        const ibf_identity id{process_id(), "host-cpp 1.0", mono_ns(), unix_ns()};
        if ((rc = ibf_stamp_identity(image.data(), image.size(), &id)) != IBF_PRODUCE_OK) {
            return failed("stamp identity", rc, err);
        }
        unsigned char *mapping = create_mapping(name, len);
        if (mapping == nullptr) {
            return false;
        }
        if ((rc = ibf_produce_attached(mapping, len, image.data(), image.size(), &host_, &err)) != IBF_PRODUCE_OK) {
            return failed("produce", rc, err);
        }
        header_ = ibf_attached_header(&host_);
        header_len_ = ibf_attached_header_size(&host_);
        ring_ = ibf_attached_log_ring(&host_);
        ring_len_ = ibf_attached_log_ring_size(&host_);
        ibf_client_watch_init(&watch_, 0U);  // 0: the session's hung time, IBF_CLIENT_HUNG_MS
        for (Row &r : rows_) {
            ibf_draw_reader_init(&r.reader);
        }
        return header_ != nullptr && ring_ != nullptr;
    }

    // One turn: publish, write the ring, serve, drain, take, free, maybe reload.
    void turn(uint64_t now) {
        publish(now);
        write_ring();
        for (uint32_t row = 0; row < kRows; row++) {
            serve(row);
            drain(row);
            take(row);
            free_if_done(row, now);
        }
        bool active = false;
        for (uint32_t row = 0; row < kRows; row++) {
            active = active || state(row) == IBF_CLIENT_STATE_ACTIVE;
        }
        // 9. One reload, while a client holds a row (after a hung row was freed: the killed
        // bot's row is not the one reloaded away).
        if (counts_.reloads == 0 && counts_.hung > 0 && active) {
            uint32_t generation = 0;
            std::array<uint32_t, kRows> was{};
            check("reload", ibf_attached_client_reload(&host_, &generation, was.data(), nullptr));
            counts_.reloads++;
            // A new reader for each row the reload freed (its exchange was reset); a free
            // row's writer goes on, with the reader the host has.
            for (uint32_t row = 0; row < kRows; row++) {
                if (was[row] != IBF_CLIENT_STATE_FREE) {
                    new_reader(rows_[row]);
                }
            }
        }
    }

    bool all_free() {
        for (uint32_t row = 0; row < kRows; row++) {
            if (state(row) != IBF_CLIENT_STATE_FREE) {
                return false;
            }
        }
        return true;
    }

    // 10. Exit: the rows' standing says the host is exiting; then the last counts.
    Counts finish() {
        for (uint32_t row = 0; row < kRows; row++) {
            if (state(row) != IBF_CLIENT_STATE_FREE) {
                counts_.stuck++;
            }
        }
        std::array<uint8_t, IBF_MAX_PLAYERS> owners{};
        ibf_bridge_header_load_pad_owner(ibf_attached_header(&host_), owners.data());
        for (uint8_t owner : owners) {
            if (owner != IBF_NO_PAD && owner != IBF_PAD_NOT_BOT) {
                counts_.leaked++;
            }
        }
        check("exit", ibf_client_host_exit(header_, header_len_));
        return counts_;
    }

private:
    static bool failed(const char *what, int rc, const ibf_attach_error &err) {
        std::fprintf(stderr, "host cpp: %s: %s (%s)\n", what, ibf_result_name(rc), err.region);
        return false;
    }

    void check(const char *what, int rc) {
        if (rc != IBF_OK) {
            std::fprintf(stderr, "host cpp: %s: %s\n", what, ibf_result_name(rc));
            counts_.wrong++;
        }
    }

    ibf_client_state state(uint32_t row) const {
        return ibf_client_entry_load_state(&header_->clients[row]);
    }

    static void new_reader(Row &r) {
        ibf_draw_reader_init(&r.reader);
        r.last_list = 0;
    }

    // 4. Publish: the slot's publish_seq is stamped by the helper.
    void publish(uint64_t now) {
        slot_.tick = counts_.ticks;
        slot_.publish_ns = now;
        slot_.payload_extra_len = 0;
        check("publish", ibf_snapshot_ring_publish(header_, ibf_attached_snapshot_ring(&host_),
                                                   ibf_attached_snapshot_ring_count(&host_),
                                                   ibf_attached_snapshot_ring_stride(&host_), &slot_, nullptr));
        counts_.ticks++;
    }

    // The log ring: one entry per turn whose text is its seq (the torture's readers check it).
    void write_ring() {
        ibf_log_entry e{};
        const std::string text = std::to_string(ring_written_);
        uint64_t seq = 0;
        e.tick = counts_.ticks;
        check("log ring", ibf_log_ring_push(ring_, ring_len_, &e, "host", 4, text.data(), text.size(), &seq));
        if (seq != ring_written_) {
            counts_.wrong++;
        }
        ring_written_++;
    }

    // 5. Serve: `req K` gets status ok and `ans K` then K % 50 bytes `x`; a request whose
    // length is past its area gets status failed (serve_begin still gives its seq).
    void serve(uint32_t row) {
        void *box = ibf_attached_client_blocks_mailbox(&host_, row);
        const size_t len = ibf_attached_client_blocks_mailbox_size(&host_, row);
        size_t n = 0;
        uint32_t seq = 0;
        if (box == nullptr) {
            return;
        }
        // The host's side reads the capacities it laid out, never the bytes the client can write.
        const unsigned char *laid_out = ibf_attached_laid_out(&host_, box);
        const int rc = ibf_mailbox_serve_begin_laid_out(box, len, laid_out, request_.data(), request_.size() - 1, &n, &seq);
        if (rc == IBF_PENDING) {
            return;
        }
        if (rc == IBF_MAILBOX_LENGTH) {
            static const char refusal[] = "malformed request: its length is past the request area";
            check("answer", ibf_mailbox_serve_answer_laid_out(box, len, laid_out, seq, IBF_COMMAND_STATUS_FAILED, refusal, sizeof refusal - 1));
            counts_.answered++;
            counts_.malformed++;
            return;
        }
        if (rc != IBF_OK) {
            check("serve", rc);
            return;
        }
        request_[n] = '\0';
        char *end = nullptr;
        const uint64_t k = std::strtoull(request_.data() + 4, &end, 10);
        if (std::strncmp(request_.data(), "req ", 4) != 0 || end == request_.data() + 4 || *end != '\0') {
            counts_.wrong++;
            static const char refusal[] = "not a request";
            check("answer", ibf_mailbox_serve_answer_laid_out(box, len, laid_out, seq, IBF_COMMAND_STATUS_REFUSED, refusal, sizeof refusal - 1));
            return;
        }
        std::string answer = "ans " + std::to_string(k);
        answer.append(k % 50U, 'x');
        check("answer", ibf_mailbox_serve_answer_laid_out(box, len, laid_out, seq, IBF_COMMAND_STATUS_OK, answer.data(), answer.size()));
        counts_.answered++;
    }

    // 6. Drain: each entry in order (text k above the last, tick k, source `torture`), up to
    // `end`.
    void drain(uint32_t row) {
        void *queue = ibf_attached_client_blocks_log_queue(&host_, row);
        const size_t len = ibf_attached_client_blocks_log_queue_size(&host_, row);
        Row &r = rows_[row];
        if (queue == nullptr) {
            return;
        }
        int rc;
        while ((rc = ibf_log_queue_pop_laid_out(queue, len, ibf_attached_laid_out(&host_, queue), &record_)) == IBF_OK) {
            counts_.drained++;
            if (std::strcmp(record_.text, "end") == 0) {
                r.have_k = false;
                continue;
            }
            char *end = nullptr;
            const uint64_t k = std::strtoull(record_.text, &end, 10);
            if (end == record_.text || *end != '\0' || std::strcmp(record_.source, "torture") != 0 ||
                record_.head.tick != k || (r.have_k && k <= r.last_k)) {
                counts_.wrong++;
            }
            r.have_k = true;
            r.last_k = k;
        }
        if (rc != IBF_EMPTY) {
            check("drain", rc);
        }
    }

    // 7. Take: a list n holds 1 + n % 7 commands of colour n, each pointing at 8 bytes
    // holding n, and is newer than the last taken.
    void take(uint32_t row) {
        void *draw = ibf_attached_bot_blocks_draw(&host_, row);
        const size_t len = ibf_attached_bot_blocks_draw_size(&host_, row);
        Row &r = rows_[row];
        ibf_draw_list_header head{};
        if (draw == nullptr) {
            return;
        }
        const int rc = ibf_draw_take_laid_out(&r.reader, draw, len, ibf_attached_laid_out(&host_, draw), &head);
        if (rc == IBF_EMPTY) {
            return;
        }
        if (rc != IBF_OK) {
            check("take", rc);
            return;
        }
        counts_.lists++;
        bool good = head.count == 1U + head.seq % 7U && head.payload_len == 8U * head.count && head.seq > r.last_list;
        for (uint32_t i = 0; good && i < head.count; i++) {
            ibf_draw_cmd cmd{};
            uint64_t bytes = 0;
            good = ibf_draw_item(&r.reader, i, &cmd) == IBF_OK && cmd.color == head.seq &&
                   ibf_draw_payload(&r.reader, cmd.payload_off, 8, &bytes) == IBF_OK && bytes == head.seq;
        }
        if (!good) {
            counts_.wrong++;
        }
        r.last_list = head.seq;
    }

    // 8. Free: a row whose client said goodbye, or a hung one (drained first).
    void free_if_done(uint32_t row, uint64_t now) {
        const bool closing = state(row) == IBF_CLIENT_STATE_CLOSING;
        const bool hung = !closing && ibf_client_hung(header_, header_len_, &watch_, row, now);
        if (!closing && !hung) {
            return;
        }
        drain(row);
        uint32_t was = 0;
        check("free", ibf_attached_client_free(&host_, row, &was));
        new_reader(rows_[row]);
        if (hung) {
            counts_.hung++;
        } else {
            counts_.goodbyes++;
        }
    }

    ibf_attached host_{};
    ibf_bridge_header *header_ = nullptr;
    size_t header_len_ = 0;
    void *ring_ = nullptr;
    size_t ring_len_ = 0;
    uint64_t ring_written_ = 0;
    ibf_client_watch watch_{};
    std::array<Row, kRows> rows_{};
    std::array<char, 4096> request_{};
    ibf_log_queue_record record_{};
    ibf_ring_slot_copy slot_{};
    Counts counts_{};
};

}  // namespace

int main(int argc, char **argv) {
    if (argc != 4) {
        std::fprintf(stderr, "usage: host MAPPING STOP_FILE MAX_MS\n");
        return 2;
    }
    const std::string name = argv[1], stop_file = argv[2];
    const uint64_t max_ns = std::strtoull(argv[3], nullptr, 10) * 1000000ULL;
    // The host's state is large (the snapshot slot's copy): not on the stack.
    static Host host;
    if (!host.start(name)) {
        return 1;
    }
    std::printf("host cpp: ready\n");
    std::fflush(stdout);
    const uint64_t started = mono_ns();
    uint64_t stopped = 0;
    bool timed_out = false;
    for (uint64_t turn = 0;; turn++) {
        const uint64_t now = mono_ns();
        host.turn(now);
        if (stopped == 0 && turn % 16U == 0 && exists(stop_file)) {
            stopped = now;
        }
        if (stopped == 0 && now - started > max_ns) {
            std::fprintf(stderr, "host cpp: no stop file after %s ms\n", argv[3]);
            timed_out = true;
            stopped = now;
        }
        if (stopped != 0 && (host.all_free() || now - stopped > kDrainAfterStopNs)) {
            break;
        }
        nap();
    }
    const Counts c = host.finish();
    std::printf("host cpp: %" PRIu64 " ticks, %" PRIu64 " answered, %" PRIu64 " drained, %" PRIu64
                " lists taken, %" PRIu64 " hung freed, %" PRIu64 " reloads, %" PRIu64 " wrong, %" PRIu64
                " stuck rows, %" PRIu64 " leaked pads\n",
                c.ticks, c.answered, c.drained, c.lists, c.hung, c.reloads, c.wrong, c.stuck, c.leaked);
    std::printf("host cpp: %" PRIu64 " goodbyes, %" PRIu64 " malformed requests answered\n", c.goodbyes, c.malformed);
    std::fflush(stdout);
    const bool active = c.ticks > 0 && c.answered > 0 && c.drained > 0 && c.lists > 0 && c.hung > 0 &&
                        c.reloads > 0 && c.malformed > 0;
    return !timed_out && active && c.wrong == 0 && c.stuck == 0 && c.leaked == 0 ? 0 : 1;
}
