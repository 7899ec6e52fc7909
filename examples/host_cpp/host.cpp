// A C++17 game host written from generated/bridge.h alone (issues 40 and 48): it lays out
// the bridge, stamps its identity, produces it into a new owner-only mapping (a file such as
// /dev/shm/NAME on Linux, a named section such as Local\NAME on Windows, its descriptor this
// user and SYSTEM: docs/security.md, "Who may attach"), registers in the host directory
// (DIRECTORY, by default IBF_HOSTS_LINUX_PATH or IBF_HOSTS_WINDOWS_NAME: opened, or created
// owner-only, by the header), then, once a millisecond until told to stop: publishes a tick, writes the log ring, and runs one service turn
// (ibf_host_service_turn: every row's mailbox served through its answer callback, a malformed
// request answered `failed`; every log queue drained into its log callback; every bot row's
// draw list taken through its draw callback; rows whose client said goodbye, is hung or whose
// process is gone freed, hostile rows freed by the broken-client policy), reloads once,
// re-lays out once (8 -> 16 ring slots over the same mapping, sized for 16 from the start:
// ibf_relayout keeps the host's own fields), and at the end says it is exiting and
// unregisters. Every
// protocol step is a call of the header; this file has no protocol logic of its own.
//
//   host MAPPING STOP_FILE MAX_MS [DIRECTORY]
//
// It prints `host cpp: ready` once the bridge is produced, and when STOP_FILE exists (or
// MAX_MS passed: a failure) and every row is free again (or 3 s more passed), one line:
//
//   host cpp: T ticks, A answered, Q drained, D lists taken, H hung or dead freed,
//   R reloads, L re-layouts, 0 wrong, 0 stuck rows, 0 leaked pads
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
//
// Its lines by category: the note at the end.

// --- platform ---
#ifdef _WIN32
#include <windows.h>
#include <sddl.h>
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

// New shared memory of `len` bytes under `name`, owner-only: a new 0600 file on Linux; on
// Windows a named section whose descriptor grants this user and SYSTEM alone (docs/security.md,
// "Who may attach"), produced over when a bot still holds one (docs/hosts.md, "Start-up on
// Windows": produce writes a generation past the one its holders saw).
unsigned char *create_mapping(const std::string &name, size_t len) {
#ifdef _WIN32
    union {
        TOKEN_USER user;
        unsigned char bytes[256];
    } token_user{};
    HANDLE token = nullptr;
    DWORD size = 0;
    char *sid = nullptr;
    const auto failed = [&name](const char *what) -> unsigned char * {
        std::fprintf(stderr, "host cpp: %s for %s (error %lu)\n", what, name.c_str(), GetLastError());
        return nullptr;
    };
    if (!OpenProcessToken(GetCurrentProcess(), TOKEN_QUERY, &token)) {
        return failed("cannot open the process token");
    }
    const BOOL ok = GetTokenInformation(token, TokenUser, &token_user, sizeof token_user, &size);
    CloseHandle(token);
    if (!ok || !ConvertSidToStringSidA(token_user.user.User.Sid, &sid)) {
        return failed("cannot read this user's SID");
    }
    const std::string sddl = std::string("D:P(A;;GA;;;") + sid + ")(A;;GA;;;SY)";
    LocalFree(sid);
    SECURITY_ATTRIBUTES attributes{sizeof attributes, nullptr, FALSE};
    if (!ConvertStringSecurityDescriptorToSecurityDescriptorA(sddl.c_str(), SDDL_REVISION_1,
                                                              &attributes.lpSecurityDescriptor, nullptr)) {
        return failed("cannot make the owner-only descriptor");
    }
    const uint64_t size64 = len;
    HANDLE h = CreateFileMappingA(INVALID_HANDLE_VALUE, &attributes, PAGE_READWRITE, static_cast<DWORD>(size64 >> 32),
                                  static_cast<DWORD>(size64 & 0xFFFFFFFFU), name.c_str());
    const DWORD error = GetLastError();
    LocalFree(attributes.lpSecurityDescriptor);
    if (h == nullptr) {
        std::fprintf(stderr, "host cpp: cannot create the section %s (error %lu)\n", name.c_str(), error);
        return nullptr;
    }
    if (error == ERROR_ALREADY_EXISTS) {
        std::fprintf(stderr, "host cpp: %s is still held: producing over it\n", name.c_str());
    }
    void *view = MapViewOfFile(h, FILE_MAP_READ | FILE_MAP_WRITE, 0, 0, len);
    return view != nullptr ? static_cast<unsigned char *>(view) : failed("cannot map the section");
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

// The host directory `where` (a file on Linux, a section's name on Windows), opened, or
// created owner-only and laid out, by the header's helper.
int open_directory(const std::string &where, ibf_directory_mapping *map, ibf_directory *out) {
#ifdef _WIN32
    return ibf_hosts_open_or_create_named(where.c_str(), map, out);
#else
    return ibf_hosts_open_or_create(where.c_str(), map, out);
#endif
}

// --- protocol and bookkeeping ---

struct Counts { uint64_t ticks = 0, reloads = 0, relayouts = 0, wrong = 0, stuck = 0, leaked = 0; };

// --- game: what it keeps per row, its log queue's order and the last draw list taken ---
struct Row {
    bool have_k = false;
    uint64_t last_k = 0;
    uint32_t last_list = 0, generation = 0;
};

// --- protocol and bookkeeping ---

class Host {
public:
    bool start(const std::string &name, const std::string &directory) {
        // The mapping is sized for the largest geometry (16 slots), the bridge laid out at 8.
        size_t len = 0;
        mapping_ = lay_out(16, len_).empty() ? nullptr : create_mapping(name, len_);
        std::vector<unsigned char> image = lay_out(8, len);
        ibf_attach_error err{};
        if (mapping_ == nullptr || !check("start", ibf_produce_attached(mapping_, len_, image.data(), len, &host_, &err))) {
            return false;
        }
        // 0: the session's hung time; the host's buffers are as large as the capacities above.
        ibf_host_service_init(&service_, 0U, request_.data(), request_.size() - 1, answer_.data(), answer_.size());
        callbacks_.ctx = this;
        callbacks_.answer = [](void *h, uint32_t row, const char *text, size_t n_, char *out, size_t cap, size_t *out_len) {
            return static_cast<Host *>(h)->answer(row, text, n_, out, cap, out_len);
        };
        callbacks_.log = [](void *h, uint32_t row, const ibf_log_queue_record *r) { static_cast<Host *>(h)->log(row, *r); };
        callbacks_.draw = [](void *h, uint32_t row, const ibf_draw_reader *r, const ibf_draw_list_header *head) {
            static_cast<Host *>(h)->draw(row, *r, *head);
        };
        callbacks_.probe = ibf_process_probe;
        // Listed in the host directory once the bridge runs (stale hosts' rows freed first).
        int rc = ibf_process_probe(process_id(), &created_, nullptr) == IBF_PROCESS_RUNNING ? open_directory(directory, &dir_map_, &dir_) : IBF_DIRECTORY_OS_ERROR;
        rc = rc == IBF_DIRECTORY_OK ? ibf_directory_register(&dir_, process_id(), created_, "host-cpp 1.0", ibf_process_probe, nullptr, &dir_row_, nullptr) : rc;
        std::fprintf(stderr, "host cpp: directory: %s\n", ibf_directory_error_name(rc));
        return rc == IBF_DIRECTORY_OK;
    }

    // One turn: publish, write the ring, the service turn, maybe reload.
    void turn(uint64_t now) {
        publish(now);
        write_ring();
        check("service turn", ibf_host_service_turn(&host_, &service_, &callbacks_, now, &turns_));
        // One reload, while a client holds a row (after the killed bot's row was freed).
        if (counts_.reloads == 0 && freed_hung_or_dead() > 0 && any(IBF_CLIENT_STATE_ACTIVE)) {
            uint32_t generation = 0;
            check("reload", ibf_host_service_reload(&host_, &service_, &generation));
            counts_.reloads++;
            relayout_at_ = counts_.ticks + 50U;
        }
        // One re-layout (8 -> 16 slots) a few ticks after, while a client holds a row: a new
        // stamped image over the same mapping, the host's own fields kept (ibf_relayout).
        if (counts_.relayouts == 0 && relayout_at_ != 0 && counts_.ticks >= relayout_at_ && any(IBF_CLIENT_STATE_ACTIVE)) {
            size_t len = 0;
            std::vector<unsigned char> image = lay_out(16, len);
            ibf_attach_error err{};
            check("re-layout", ibf_relayout(mapping_, len_, image.data(), len, &host_, &err));
            // The new image's rows and queues (the counts are kept apart).
            ibf_host_service_init(&service_, 0U, request_.data(), request_.size() - 1, answer_.data(), answer_.size());
            ring_written_ = 0;  // its log ring starts empty
            counts_.relayouts++;
        }
    }

    bool all_free() const { return !any(IBF_CLIENT_STATE_CLAIMED) && !any(IBF_CLIENT_STATE_ACTIVE) && !any(IBF_CLIENT_STATE_CLOSING); }

    // Exit: the rows' standing says the host is exiting; then the last counts.
    void finish() {
        for (uint32_t row = 0; row < kRows; row++) {
            counts_.stuck += state(row) != IBF_CLIENT_STATE_FREE ? 1U : 0U;
        }
        std::array<uint8_t, IBF_MAX_PLAYERS> owners{};
        ibf_bridge_header_load_pad_owner(ibf_attached_header(&host_), owners.data());
        for (uint8_t owner : owners) {
            counts_.leaked += owner != IBF_NO_PAD && owner != IBF_PAD_NOT_BOT ? 1U : 0U;
        }
        check("exit", ibf_client_host_exit(ibf_attached_header(&host_), ibf_attached_header_size(&host_)));
        counts_.wrong += ibf_directory_unregister(&dir_, dir_row_, process_id(), created_) ? 0U : 1U;
        ibf_directory_unmap(&dir_map_);
        const ibf_host_counts &t = turns_;
        if (t.errors != 0) {  // a helper's errors are wrong too (the last one named)
            std::fprintf(stderr, "host cpp: %" PRIu64 " errors, the last %s\n", t.errors, ibf_result_name(t.last_error));
            counts_.wrong += t.errors;
        }
        std::printf("host cpp: %" PRIu64 " ticks, %" PRIu64 " answered, %" PRIu64 " drained, %" PRIu64
                    " lists taken, %" PRIu64 " hung or dead freed, %" PRIu64 " reloads, %" PRIu64 " re-layouts, %" PRIu64
                    " wrong, %" PRIu64 " stuck rows, %" PRIu64 " leaked pads\n",
                    counts_.ticks, t.served + t.malformed, t.drained, t.taken, freed_hung_or_dead(), counts_.reloads,
                    counts_.relayouts, counts_.wrong, counts_.stuck, counts_.leaked);
        std::printf("host cpp: %" PRIu64 " goodbyes, %" PRIu64 " hung, %" PRIu64 " dead, %" PRIu64
                    " freed by the policy, %" PRIu64 " malformed requests answered\n",
                    t.freed[IBF_HOST_FREED_CLOSING], t.freed[IBF_HOST_FREED_HUNG], t.freed[IBF_HOST_FREED_DEAD],
                    t.freed[IBF_HOST_FREED_POLICY], t.malformed);
    }

    bool ok() const {
        const ibf_host_counts &t = turns_;
        return counts_.ticks > 0 && t.served > 0 && t.malformed > 0 && t.drained > 0 && t.taken > 0 && freed_hung_or_dead() > 0 &&
               counts_.reloads > 0 && counts_.relayouts > 0 && counts_.wrong == 0 && counts_.stuck == 0 && counts_.leaked == 0;
    }

private:
    // A stamped image of `slots` ring slots, `len` bytes (a null buffer asks for the size);
    // empty (len 0) on an error.
    std::vector<unsigned char> lay_out(uint32_t slots, size_t &len) {
        const ibf_geometry_value geometry[] = {{"bridge_header.ring_slots", slots}, {"mailbox.request_capacity", 2048},
                                               {"mailbox.response_capacity", 8192}};
        const ibf_identity id{process_id(), "host-cpp 1.0", mono_ns(), unix_ns()};
        ibf_attach_error err{};
        (void)ibf_lay_out(nullptr, 0, geometry, 3, 1, &len, &err);
        std::vector<unsigned char> image(len);
        const int rc = ibf_lay_out(image.data(), len, geometry, 3, 1, &len, &err);
        len = check("lay out", rc == IBF_PRODUCE_OK ? ibf_stamp_identity(image.data(), len, &id) : rc) ? len : 0U;
        return len != 0 ? image : std::vector<unsigned char>{};
    }

    // IBF_OK (IBF_PRODUCE_OK), or the error counted as wrong.
    bool check(const char *what, int rc) {
        if (rc != IBF_OK) {
            std::fprintf(stderr, "host cpp: %s: %s\n", what, ibf_result_name(rc));
            counts_.wrong++;
        }
        return rc == IBF_OK;
    }

    ibf_client_state state(uint32_t row) const { return ibf_client_entry_load_state(&ibf_attached_header(&host_)->clients[row]); }

    bool any(ibf_client_state s) const {
        bool found = false;
        for (uint32_t row = 0; row < kRows; row++) {
            found = found || state(row) == s;
        }
        return found;
    }

    uint64_t freed_hung_or_dead() const { return turns_.freed[IBF_HOST_FREED_HUNG] + turns_.freed[IBF_HOST_FREED_DEAD]; }

    // --- game ---

    // Publish: the slot's publish_seq is stamped by the helper.
    void publish(uint64_t now) {
        slot_.tick = counts_.ticks;
        slot_.publish_ns = now;
        slot_.payload_extra_len = 0;
        check("publish", ibf_snapshot_ring_publish(ibf_attached_header(&host_), ibf_attached_snapshot_ring(&host_),
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
        check("log ring", ibf_log_ring_push(ibf_attached_log_ring(&host_), ibf_attached_log_ring_size(&host_), &e, "host", 4,
                                            text.data(), text.size(), &seq));
        counts_.wrong += seq != ring_written_ ? 1U : 0U;
        ring_written_++;
    }

    // `req K` gets status ok and `ans K` then K % 50 bytes `x`; a malformed request (text null:
    // its length is past its area) status failed; anything else is wrong, refused.
    uint32_t answer(uint32_t, const char *text, size_t, char *out, size_t cap, size_t *out_len) {
        char *end = nullptr;
        const uint64_t k = text != nullptr ? std::strtoull(text + 4, &end, 10) : 0;
        std::string a = "malformed request: its length is past the request area";
        uint32_t status = IBF_COMMAND_STATUS_FAILED;
        if (text != nullptr && (std::strncmp(text, "req ", 4) != 0 || end == text + 4 || *end != '\0')) {
            counts_.wrong++;
            a = "not a request";
            status = IBF_COMMAND_STATUS_REFUSED;
        } else if (text != nullptr) {
            a = "ans " + std::to_string(k) + std::string(k % 50U, 'x');
            status = IBF_COMMAND_STATUS_OK;
        }
        *out_len = a.size() < cap ? a.size() : cap;
        std::memcpy(out, a.data(), *out_len);
        return status;
    }

    // Each entry in order (text k above the last, tick k, source `torture`), up to `end`.
    void log(uint32_t row, const ibf_log_queue_record &r) {
        Row &g = rows_[row];
        if (std::strcmp(r.text, "end") == 0) {
            g.have_k = false;
            return;
        }
        char *end = nullptr;
        const uint64_t k = std::strtoull(r.text, &end, 10);
        counts_.wrong += end == r.text || *end != '\0' || std::strcmp(r.source, "torture") != 0 || r.head.tick != k ||
                                 (g.have_k && k <= g.last_k)
                             ? 1U
                             : 0U;
        g.have_k = true;
        g.last_k = k;
    }

    // A list n holds 1 + n % 7 commands of colour n, each pointing at 8 bytes holding n, and is
    // newer than the last taken from the row's claim (its generation).
    void draw(uint32_t row, const ibf_draw_reader &reader, const ibf_draw_list_header &head) {
        Row &g = rows_[row];
        const uint32_t generation = ibf_client_entry_load_generation(&ibf_attached_header(&host_)->clients[row]);
        g.last_list = generation == g.generation ? g.last_list : 0U;
        g.generation = generation;
        bool good = head.count == 1U + head.seq % 7U && head.payload_len == 8U * head.count && head.seq > g.last_list;
        for (uint32_t i = 0; good && i < head.count; i++) {
            ibf_draw_cmd cmd{};
            uint64_t bytes = 0;
            good = ibf_draw_item(&reader, i, &cmd) == IBF_OK && cmd.color == head.seq &&
                   ibf_draw_payload(&reader, cmd.payload_off, 8, &bytes) == IBF_OK && bytes == head.seq;
        }
        counts_.wrong += good ? 0U : 1U;
        g.last_list = head.seq;
    }

    // --- protocol and bookkeeping: the state ---
    ibf_attached host_{};
    ibf_directory_mapping dir_map_{};
    ibf_directory dir_{};
    uint32_t dir_row_ = 0;
    unsigned char *mapping_ = nullptr;
    size_t len_ = 0;
    uint64_t relayout_at_ = 0, created_ = 0;
    ibf_host_service service_{};
    ibf_host_callbacks callbacks_{};
    ibf_host_counts turns_{};
    std::array<char, 2048> request_{};
    std::array<char, 8192> answer_{};
    Counts counts_{};

    // --- game: the state ---
    uint64_t ring_written_ = 0;
    std::array<Row, kRows> rows_{};
    ibf_ring_slot_copy slot_{};
};

}  // namespace

// --- driver ---
int main(int argc, char **argv) {
    if (argc != 4 && argc != 5) {
        std::fprintf(stderr, "usage: host MAPPING STOP_FILE MAX_MS [DIRECTORY]\n");
        return 2;
    }
    const std::string name = argv[1], stop_file = argv[2];
    const uint64_t max_ns = std::strtoull(argv[3], nullptr, 10) * 1000000ULL;
    // The host's state is large (the snapshot slot's copy): not on the stack.
    static Host host;
#ifdef _WIN32
    const std::string directory = argc == 5 ? argv[4] : IBF_HOSTS_WINDOWS_NAME;
#else
    const std::string directory = argc == 5 ? argv[4] : IBF_HOSTS_LINUX_PATH;
#endif
    if (!host.start(name, directory)) {
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
    host.finish();
    std::fflush(stdout);
    return !timed_out && host.ok() ? 0 : 1;
}

// --- note ---
// Lines by category (issue 48), blanks and comments included, each from its `// ---` marker
// to the next (tests/host_cpp.rs counts them and holds protocol and bookkeeping to 150): the
// header comment and platform (includes, clocks, nap, the stop file's test, the owner-only
// mapping, the directory's open); protocol and bookkeeping (start, laying out a stamped image,
// the directory's register and unregister, the turn, the reload, the re-layout, the exit, the
// counts, the callbacks' wiring and the state: every protocol step is one helper call); game
// (publishing, the log ring, the answers, the torture's contract checks of log entries and
// draw lists, and its state); the driver (main: arguments, the stop file, the deadline); and
// this note.
