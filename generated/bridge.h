/* generated from schema.toml; do not edit */
/**
 * Bridge schema reference
 *
 * All structs are little-endian and naturally aligned, with every padding byte declared.
 *
 * ABI version 0.9.
 */
#ifndef IBF_BRIDGE_H_
#define IBF_BRIDGE_H_

#include <stddef.h>
#include <stdint.h>
#include <stdbool.h>
#include <string.h>
#if (defined(__GNUC__) || defined(__clang__)) && !defined(IBF_LIVE_MSVC_INTRINSICS)
#ifndef _WIN32
#include <sched.h>
#endif
#elif defined(_MSC_VER) || defined(IBF_LIVE_MSVC_INTRINSICS)
#include <intrin.h>
#endif
#if defined(_WIN32) && !defined(__linux__)
/* The host directory's process probe (OpenProcess, GetExitCodeProcess, GetProcessTimes) and
 * named section (CreateFileMappingA), and the events' named auto-reset events
 * (WaitForSingleObject, SetEvent). */
#ifdef NOMINMAX
#include <windows.h>
#else
#define NOMINMAX
#include <windows.h>
#undef NOMINMAX
#endif
/* The host directory's owner-only section (ConvertStringSecurityDescriptorToSecurityDescriptorA). */
#include <sddl.h>
#endif
#if defined(__linux__)
/* The host directory's open-or-create: open, lseek, write, chmod, fstat, mmap, poll. */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#endif

/*
 * The ABI is little-endian, and the structs below hold its fields in the target's byte order:
 * a big-endian target is refused. GCC and Clang say which order they target in __BYTE_ORDER__;
 * MSVC defines no such macro, and every target it has (x86, x64, ARM, ARM64) is little-endian.
 */
#if defined(__BYTE_ORDER__) && defined(__ORDER_LITTLE_ENDIAN__) && __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
#error "bridge.h: the bridge ABI is little-endian and this header holds its fields in the target's byte order: a big-endian target is not supported"
#endif

/*
 * Names: each type is ibf_<name>, each macro IBF_<NAME>.
 *
 * A field keeps its schema name unless C or C++ would not take it as a member: a C11, C23,
 * C++17 or C++20 keyword, a C++ alternative token (and, or, not, ...), a lowercase macro of a
 * standard header (bool, errno, complex, ...) or of GCC's GNU modes (linux, unix), a type name
 * of <stdint.h> or <stddef.h>, or a name that starts with ibf_. Such a field gets a
 * trailing underscore: class becomes class_.
 *
 * Enum and flag types are typedefs of their fixed-width integer, so a field keeps its exact
 * width. Their values are macros, usable in switch cases and constant expressions in C and C++:
 * the literal as the enum's type, a cast in C and a braced conversion in C++ (type{value}), so
 * a C++ host uses them without casts and without -Wold-style-cast or -Wuseless-cast warnings.
 *
 * Each struct is followed by static asserts of its size, its alignment and its field offsets.
 *
 * A member of an 8-byte type (uint64_t, int64_t, double, an enum or flag set over a 64-bit
 * integer, or an array of them) is declared with IBF_ALIGNAS_(8): the ABI aligns it to 8,
 * and 32-bit x86 (gcc -m32) would align it to 4 inside a struct. Its struct, and every struct
 * or array that holds that struct, so keep the ABI's alignment on every target.
 */

#ifdef __cplusplus
#define IBF_STATIC_ASSERT_(condition, message) static_assert(condition, message)
#define IBF_ALIGNOF_(type) alignof(type)
#define IBF_ALIGNAS_(n) alignas(n)
#define IBF_VALUE_(type, value) (type{value})
#if defined(__GNUC__)
/* The helpers below are C, which C++ compiles too: their C casts and NULLs would warn under a
 * C++ host's -Wold-style-cast, -Wuseless-cast (a cast to a typedef that is the same type on
 * this target) and -Wzero-as-null-pointer-constant, so those are off inside this header and
 * back on (pop, at its end) for the host's own code. Its enum values are no C casts. */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wold-style-cast"
#pragma GCC diagnostic ignored "-Wzero-as-null-pointer-constant"
#if !defined(__clang__)
#pragma GCC diagnostic ignored "-Wuseless-cast"
#endif
#endif
extern "C" {
#else
#define IBF_STATIC_ASSERT_(condition, message) _Static_assert(condition, message)
#define IBF_ALIGNOF_(type) _Alignof(type)
#define IBF_ALIGNAS_(n) _Alignas(n)
#define IBF_VALUE_(type, value) ((type)(value))
#endif

/* Defined at the end: the name of any code a helper returns. */
static inline const char *ibf_result_name(int code);

/** The ABI version this header describes. */
#define IBF_ABI_VERSION_MAJOR 0U
#define IBF_ABI_VERSION_MINOR 9U
/** The ABI version as text, "MAJOR.MINOR". */
#define IBF_ABI_VERSION "0.9"

/* Constants */

/** 'IBFB' read as a little-endian u32 */
#define IBF_BRIDGE_MAGIC 0x42464249U
/** 'IBFD' read as a little-endian u32 */
#define IBF_DIRECTORY_MAGIC 0x44464249U
/** Client table rows, and client blocks */
#define IBF_MAX_CLIENTS 8U
/** Hosts the directory lists at once */
#define IBF_MAX_INSTANCES 16U
/** Rows in a layout table */
#define IBF_MAX_REGIONS 8U
/** Snapshot ring slots */
#define IBF_RING_SLOTS 8U
/** Bytes per ring slot, its header included */
#define IBF_RING_SLOT_SIZE 32768U
/** Bytes per client block */
#define IBF_CLIENT_BLOCK_SIZE 0x10000U
/** Bytes of entries in the host log ring */
#define IBF_LOG_RING_CAPACITY 0x10000U
/** Bytes of entries in a client's log queue */
#define IBF_LOG_QUEUE_CAPACITY 16384U
/** Bytes in a client name, including the terminating NUL */
#define IBF_CLIENT_NAME_LEN 32U
/** Bytes in a host version string, including the terminating NUL */
#define IBF_VERSION_LEN 32U
/** Bytes of a log entry's source */
#define IBF_LOG_SOURCE_MAX 32U
/** Bytes of a log entry's text; longer messages are split */
#define IBF_LOG_TEXT_MAX 968U
/** No virtual pad bound; in pad_owner, a bot pad nobody owns */
#define IBF_NO_PAD 255U
/** In pad_owner: the slot is not a bot pad (input.bot_pads), so no client can bind it */
#define IBF_PAD_NOT_BOT 254U
/** Bytes of a command line a client may send, its terminating NUL included */
#define IBF_COMMAND_LINE_MAX 1024U
/**
 * Bytes per bot block: a client's draw lists, parameters and stats (ABI 0.5)
 *
 * Since ABI 0.5.
 */
#define IBF_BOT_BLOCK_SIZE 0x49000U
/** Draw lists per client: the client's, the shared one and the host's (a triple buffer) */
#define IBF_DRAW_BUFFERS 3U
/** Commands in one draw list; more are dropped and the list marked overflow */
#define IBF_DRAW_MAX_COMMANDS 2048U
/** Bytes of one draw list's payload: points, text and heatmap cells */
#define IBF_DRAW_PAYLOAD_MAX 16384U
/** Parameters a client may declare */
#define IBF_MAX_PARAMS 32U
/** Bytes in a parameter name, including the terminating NUL */
#define IBF_PARAM_NAME_LEN 32U
/** Bytes in a parameter's help text, including the terminating NUL */
#define IBF_PARAM_HELP_LEN 96U
/** Bytes of an enum parameter's options, separated by '|', including the terminating NUL */
#define IBF_PARAM_OPTIONS_LEN 88U
/** Stats a client may publish */
#define IBF_MAX_STATS 64U
/** Bytes in a stat name, including the terminating NUL */
#define IBF_STAT_NAME_LEN 24U
/** Bytes in a text stat, including the terminating NUL */
#define IBF_STAT_TEXT_LEN 24U
/** Player slots, and virtual pads */
#define IBF_MAX_PLAYERS 4U
/** Ship capacity of a snapshot */
#define IBF_MAX_SHIPS 16U
/** Projectile capacity of a snapshot */
#define IBF_MAX_PROJECTILES 128U
/** Pickup capacity of a snapshot */
#define IBF_MAX_PICKUPS 64U
/** Event ring capacity */
#define IBF_MAX_EVENTS 32U
/** Largest supported board width or height, in tiles */
#define IBF_BOARD_MAX_DIM 64U
/**
 * board_max_dim squared
 *
 * Computed as board_max_dim * board_max_dim.
 */
#define IBF_BOARD_MAX_TILES 4096U
/** Custom probe entries per snapshot */
#define IBF_MAX_EXTRAS 64U
/** Bytes of custom probe data per snapshot */
#define IBF_EXTRAS_BLOB_MAX 16384U
/** Bytes in a probe name, including the terminating NUL */
#define IBF_EXTRA_NAME_LEN 24U
/** 'IBFS' read as a little-endian u32 */
#define IBF_SNAPSHOT_MAGIC 0x53464249U
/** Empty player slot, or unknown owner */
#define IBF_NO_PLAYER 255U
/**
 * Pickup spawn points a snapshot lists (ABI 0.6)
 *
 * Since ABI 0.6.
 */
#define IBF_MAX_PICKUP_SPAWNS 16U
/**
 * Arcade spawn markers a snapshot lists (ABI 0.9)
 *
 * Since ABI 0.9.
 */
#define IBF_MAX_SPAWN_MARKERS 16U
/** 'IBFR' read as a little-endian u32: a recording's first bytes */
#define IBF_REC_MAGIC 0x52464249U
/** 'IBFC': a chunk header */
#define IBF_REC_CHUNK_MAGIC 0x43464249U
/** 'IBFX': the footer */
#define IBF_REC_FOOTER_MAGIC 0x58464249U
/** 'IBFE': the trailer, the file's last 16 bytes */
#define IBF_REC_TRAILER_MAGIC 0x45464249U
/** The .ibfrec layout version */
#define IBF_REC_FORMAT 1U
/** Tick records per chunk (5 s at 60 Hz) */
#define IBF_REC_CHUNK_TICKS 300U

/* Enums and flag sets */

/**
 * Rows of the bridge header's layout table
 *
 * Enum (u32): one of the IBF_BRIDGE_REGION_* values, or a number this header does not know.
 */
typedef uint32_t ibf_bridge_region;
#define IBF_BRIDGE_REGION_HEADER IBF_VALUE_(ibf_bridge_region, 0U)
#define IBF_BRIDGE_REGION_SNAPSHOT_RING IBF_VALUE_(ibf_bridge_region, 1U)
#define IBF_BRIDGE_REGION_CLIENT_BLOCKS IBF_VALUE_(ibf_bridge_region, 2U)
#define IBF_BRIDGE_REGION_LOG_RING IBF_VALUE_(ibf_bridge_region, 3U)
/**
 * One bot block per client row: its draw lists, parameters and stats (ABI 0.5)
 *
 * Since ABI 0.5.
 */
#define IBF_BRIDGE_REGION_BOT_BLOCKS IBF_VALUE_(ibf_bridge_region, 4U)

/**
 * Rows of a bot block's layout table
 *
 * Enum (u32): one of the IBF_BOT_REGION_* values, or a number this header does not know.
 */
typedef uint32_t ibf_bot_region;
/** A draw_header, then draw_buffers draw lists (design 8.4) */
#define IBF_BOT_REGION_DRAW IBF_VALUE_(ibf_bot_region, 0U)
/** A params_header, then max_params param_def, then max_params param_value (design 8.6) */
#define IBF_BOT_REGION_PARAMS IBF_VALUE_(ibf_bot_region, 1U)
/** A stats_header, then max_stats stat_entry (design 8.6) */
#define IBF_BOT_REGION_STATS IBF_VALUE_(ibf_bot_region, 2U)

/** Flags (u32): an OR of the IBF_DRAW_LIST_FLAGS_* bits. */
typedef uint32_t ibf_draw_list_flags;
/** Commands or payload did not fit and were dropped */
#define IBF_DRAW_LIST_FLAGS_OVERFLOW IBF_VALUE_(ibf_draw_list_flags, 0x1U)

/**
 * What a parameter's control is (design 8.6)
 *
 * Enum (u8): one of the IBF_PARAM_KIND_* values, or a number this header does not know.
 */
typedef uint8_t ibf_param_kind;
/** A checkbox: value 0 or 1 */
#define IBF_PARAM_KIND_BOOL IBF_VALUE_(ibf_param_kind, 0U)
/** A whole number between min and max */
#define IBF_PARAM_KIND_INT IBF_VALUE_(ibf_param_kind, 1U)
/** A number between min and max */
#define IBF_PARAM_KIND_FLOAT IBF_VALUE_(ibf_param_kind, 2U)
/** One of the options: value is its index */
#define IBF_PARAM_KIND_ENUM IBF_VALUE_(ibf_param_kind, 3U)
/** A button: value counts the presses */
#define IBF_PARAM_KIND_BUTTON IBF_VALUE_(ibf_param_kind, 4U)
/** A colour: value is its RGBA as a u32 (R in the low byte) */
#define IBF_PARAM_KIND_COLOR IBF_VALUE_(ibf_param_kind, 5U)

/** Enum (u8): one of the IBF_STAT_KIND_* values, or a number this header does not know. */
typedef uint8_t ibf_stat_kind;
#define IBF_STAT_KIND_NUMBER IBF_VALUE_(ibf_stat_kind, 0U)
#define IBF_STAT_KIND_TEXT IBF_VALUE_(ibf_stat_kind, 1U)

/** Flags (u8): an OR of the IBF_STAT_FLAGS_* bits. */
typedef uint8_t ibf_stat_flags;
/** Keep a sparkline of the last 300 values */
#define IBF_STAT_FLAGS_PLOT IBF_VALUE_(ibf_stat_flags, 0x1U)

/**
 * Rows of a client block's layout table
 *
 * Enum (u32): one of the IBF_CLIENT_REGION_* values, or a number this header does not know.
 */
typedef uint32_t ibf_client_region;
/** The client's log entries, for the host to drain */
#define IBF_CLIENT_REGION_LOG_QUEUE IBF_VALUE_(ibf_client_region, 0U)
/** The client's virtual pad: one pad_input record, which the host reads on each XInput poll */
#define IBF_CLIENT_REGION_PAD_INPUT IBF_VALUE_(ibf_client_region, 1U)
/** Command requests from the client and their results from the host */
#define IBF_CLIENT_REGION_MAILBOX IBF_VALUE_(ibf_client_region, 2U)

/**
 * How the host answered a command request
 *
 * Enum (u32): one of the IBF_COMMAND_STATUS_* values, or a number this header does not know.
 */
typedef uint32_t ibf_command_status;
/** Not answered yet */
#define IBF_COMMAND_STATUS_NONE IBF_VALUE_(ibf_command_status, 0U)
/** The command ran and succeeded */
#define IBF_COMMAND_STATUS_OK IBF_VALUE_(ibf_command_status, 1U)
/** The command ran and failed, or there is no such command */
#define IBF_COMMAND_STATUS_FAILED IBF_VALUE_(ibf_command_status, 2U)
/** The host takes no commands, or the request was malformed */
#define IBF_COMMAND_STATUS_REFUSED IBF_VALUE_(ibf_command_status, 3U)

/**
 * The stick that moves a ship (design 7.7)
 *
 * Enum (u8): one of the IBF_CONTROL_STICK_* values, or a number this header does not know.
 */
typedef uint8_t ibf_control_stick;
#define IBF_CONTROL_STICK_LEFT_STICK IBF_VALUE_(ibf_control_stick, 0U)
#define IBF_CONTROL_STICK_RIGHT_STICK IBF_VALUE_(ibf_control_stick, 1U)
#define IBF_CONTROL_STICK_DPAD IBF_VALUE_(ibf_control_stick, 2U)

/**
 * Whether the game waits for its bots (design 4.5; ABI 0.7)
 *
 * Enum (u8): one of the IBF_RUN_MODE_* values, or a number this header does not know. Since ABI
 * 0.7.
 */
typedef uint8_t ibf_run_mode;
/** The game never waits: each poll reads the newest input */
#define IBF_RUN_MODE_REALTIME IBF_VALUE_(ibf_run_mode, 0U)
/** After each tick the host waits until every bot pad answers it, up to lockstep_timeout_ms */
#define IBF_RUN_MODE_LOCKSTEP IBF_VALUE_(ibf_run_mode, 1U)

/**
 * Whether the game's steps run (design 4.5; ABI 0.7)
 *
 * Enum (u8): one of the IBF_SIM_STATE_* values, or a number this header does not know. Since
 * ABI 0.7.
 */
typedef uint8_t ibf_sim_state;
#define IBF_SIM_STATE_RUNNING IBF_VALUE_(ibf_sim_state, 0U)
/** sim.pause: the steps are skipped, the game still draws; sim.step lets some through */
#define IBF_SIM_STATE_PAUSED IBF_VALUE_(ibf_sim_state, 1U)

/**
 * A client table row's state (design 6.5)
 *
 * Enum (u32): one of the IBF_CLIENT_STATE_* values, or a number this header does not know.
 */
typedef uint32_t ibf_client_state;
#define IBF_CLIENT_STATE_FREE IBF_VALUE_(ibf_client_state, 0U)
/** A client won the row and is filling it in */
#define IBF_CLIENT_STATE_CLAIMED IBF_VALUE_(ibf_client_state, 1U)
#define IBF_CLIENT_STATE_ACTIVE IBF_VALUE_(ibf_client_state, 2U)
/** The client said goodbye; the host frees the row */
#define IBF_CLIENT_STATE_CLOSING IBF_VALUE_(ibf_client_state, 3U)

/**
 * What a client takes part in
 *
 * Flags (u32): an OR of the IBF_CLIENT_CAPS_* bits.
 */
typedef uint32_t ibf_client_caps;
/** Set my tick event after each publish */
#define IBF_CLIENT_CAPS_TICKS IBF_VALUE_(ibf_client_caps, 0x1U)
/** A tool (the CLI), not a bot: not counted among the bots */
#define IBF_CLIENT_CAPS_TOOL IBF_VALUE_(ibf_client_caps, 0x2U)
/**
 * Set by the host's TCP proxy for a client over TCP (design 6.6): the files its commands write
 * stay in ibf\remote (ABI 0.8)
 *
 * Since ABI 0.8.
 */
#define IBF_CLIENT_CAPS_REMOTE IBF_VALUE_(ibf_client_caps, 0x4U)

/** Enum (u32): one of the IBF_HOST_STATE_* values, or a number this header does not know. */
typedef uint32_t ibf_host_state;
#define IBF_HOST_STATE_STARTING IBF_VALUE_(ibf_host_state, 0U)
#define IBF_HOST_STATE_RUNNING IBF_VALUE_(ibf_host_state, 1U)
/** The game is closing; clients should disconnect */
#define IBF_HOST_STATE_EXITING IBF_VALUE_(ibf_host_state, 2U)

/**
 * A directory row's state
 *
 * Enum (u32): one of the IBF_INSTANCE_STATE_* values, or a number this header does not know.
 */
typedef uint32_t ibf_instance_state;
#define IBF_INSTANCE_STATE_FREE IBF_VALUE_(ibf_instance_state, 0U)
/** A host won the row and is filling it in */
#define IBF_INSTANCE_STATE_CLAIMED IBF_VALUE_(ibf_instance_state, 1U)
#define IBF_INSTANCE_STATE_LIVE IBF_VALUE_(ibf_instance_state, 2U)

/** Enum (u8): one of the IBF_LOG_ENTRY_KIND_* values, or a number this header does not know. */
typedef uint8_t ibf_log_entry_kind;
#define IBF_LOG_ENTRY_KIND_RECORD IBF_VALUE_(ibf_log_entry_kind, 0U)
/** Fills the ring to its end; the next entry starts at offset 0 */
#define IBF_LOG_ENTRY_KIND_PADDING IBF_VALUE_(ibf_log_entry_kind, 1U)

/** Enum (u8): one of the IBF_DRAW_OP_* values, or a number this header does not know. */
typedef uint8_t ibf_draw_op;
#define IBF_DRAW_OP_LINE IBF_VALUE_(ibf_draw_op, 0U)
#define IBF_DRAW_OP_POLYLINE IBF_VALUE_(ibf_draw_op, 1U)
#define IBF_DRAW_OP_RECT IBF_VALUE_(ibf_draw_op, 2U)
#define IBF_DRAW_OP_RECT_FILL IBF_VALUE_(ibf_draw_op, 3U)
#define IBF_DRAW_OP_CIRCLE IBF_VALUE_(ibf_draw_op, 4U)
#define IBF_DRAW_OP_CIRCLE_FILL IBF_VALUE_(ibf_draw_op, 5U)
#define IBF_DRAW_OP_TEXT IBF_VALUE_(ibf_draw_op, 6U)
#define IBF_DRAW_OP_ARROW IBF_VALUE_(ibf_draw_op, 7U)
#define IBF_DRAW_OP_TILE_FILL IBF_VALUE_(ibf_draw_op, 8U)
#define IBF_DRAW_OP_TILE_OUTLINE IBF_VALUE_(ibf_draw_op, 9U)
#define IBF_DRAW_OP_HEATMAP IBF_VALUE_(ibf_draw_op, 10U)

/** Enum (u8): one of the IBF_DRAW_SPACE_* values, or a number this header does not know. */
typedef uint8_t ibf_draw_space;
/** Tiles, origin at the board centre, +Y up */
#define IBF_DRAW_SPACE_WORLD IBF_VALUE_(ibf_draw_space, 0U)
/** Integer tile coordinates */
#define IBF_DRAW_SPACE_TILE IBF_VALUE_(ibf_draw_space, 1U)
/** Back-buffer pixels */
#define IBF_DRAW_SPACE_SCREEN IBF_VALUE_(ibf_draw_space, 2U)
/** 0..1 across the back buffer */
#define IBF_DRAW_SPACE_SCREEN_NORM IBF_VALUE_(ibf_draw_space, 3U)

/** Enum (u8): one of the IBF_DRAW_LAYER_* values, or a number this header does not know. */
typedef uint8_t ibf_draw_layer;
#define IBF_DRAW_LAYER_BELOW_PANELS IBF_VALUE_(ibf_draw_layer, 0U)
#define IBF_DRAW_LAYER_ABOVE_PANELS IBF_VALUE_(ibf_draw_layer, 1U)

/** Flags (u8): an OR of the IBF_DRAW_FLAGS_* bits. */
typedef uint8_t ibf_draw_flags;
#define IBF_DRAW_FLAGS_ANTIALIAS IBF_VALUE_(ibf_draw_flags, 0x1U)
/** Fade out over the list's time to live */
#define IBF_DRAW_FLAGS_FADE IBF_VALUE_(ibf_draw_flags, 0x2U)
/**
 * polyline: join the last point to the first (ABI 0.5)
 *
 * Since ABI 0.5.
 */
#define IBF_DRAW_FLAGS_CLOSED IBF_VALUE_(ibf_draw_flags, 0x4U)
/**
 * text: centred on its point instead of hanging from it (ABI 0.5)
 *
 * Since ABI 0.5.
 */
#define IBF_DRAW_FLAGS_CENTERED IBF_VALUE_(ibf_draw_flags, 0x8U)

/**
 * How a heatmap's values become colours (ABI 0.5)
 *
 * Enum (u8): one of the IBF_HEATMAP_PALETTE_* values, or a number this header does not know.
 * Since ABI 0.5.
 */
typedef uint8_t ibf_heatmap_palette;
/** The command's colour, its alpha scaled by the value */
#define IBF_HEATMAP_PALETTE_TINT IBF_VALUE_(ibf_heatmap_palette, 0U)
/** Black through red and orange to yellow */
#define IBF_HEATMAP_PALETTE_INFERNO IBF_VALUE_(ibf_heatmap_palette, 1U)
/** Purple through teal to yellow */
#define IBF_HEATMAP_PALETTE_VIRIDIS IBF_VALUE_(ibf_heatmap_palette, 2U)
/** Blue through white to red: 128 is white */
#define IBF_HEATMAP_PALETTE_COOLWARM IBF_VALUE_(ibf_heatmap_palette, 3U)
/** Black to white */
#define IBF_HEATMAP_PALETTE_GREYS IBF_VALUE_(ibf_heatmap_palette, 4U)

/** Flags (u8): an OR of the IBF_HEATMAP_FLAGS_* bits. */
typedef uint8_t ibf_heatmap_flags;
/** A value of 0 draws nothing */
#define IBF_HEATMAP_FLAGS_ZERO_CLEAR IBF_VALUE_(ibf_heatmap_flags, 0x1U)

/**
 * Log severity, lowest first
 *
 * Enum (u8): one of the IBF_LOG_LEVEL_* values, or a number this header does not know.
 */
typedef uint8_t ibf_log_level;
#define IBF_LOG_LEVEL_TRACE IBF_VALUE_(ibf_log_level, 0U)
#define IBF_LOG_LEVEL_DEBUG IBF_VALUE_(ibf_log_level, 1U)
#define IBF_LOG_LEVEL_INFO IBF_VALUE_(ibf_log_level, 2U)
#define IBF_LOG_LEVEL_WARN IBF_VALUE_(ibf_log_level, 3U)
#define IBF_LOG_LEVEL_ERROR IBF_VALUE_(ibf_log_level, 4U)

/**
 * XINPUT_GAMEPAD_* button bits
 *
 * Flags (u16): an OR of the IBF_PAD_BUTTONS_* bits.
 */
typedef uint16_t ibf_pad_buttons;
#define IBF_PAD_BUTTONS_DPAD_UP IBF_VALUE_(ibf_pad_buttons, 0x1U)
#define IBF_PAD_BUTTONS_DPAD_DOWN IBF_VALUE_(ibf_pad_buttons, 0x2U)
#define IBF_PAD_BUTTONS_DPAD_LEFT IBF_VALUE_(ibf_pad_buttons, 0x4U)
#define IBF_PAD_BUTTONS_DPAD_RIGHT IBF_VALUE_(ibf_pad_buttons, 0x8U)
#define IBF_PAD_BUTTONS_START IBF_VALUE_(ibf_pad_buttons, 0x10U)
#define IBF_PAD_BUTTONS_BACK IBF_VALUE_(ibf_pad_buttons, 0x20U)
#define IBF_PAD_BUTTONS_LEFT_THUMB IBF_VALUE_(ibf_pad_buttons, 0x40U)
#define IBF_PAD_BUTTONS_RIGHT_THUMB IBF_VALUE_(ibf_pad_buttons, 0x80U)
#define IBF_PAD_BUTTONS_LEFT_SHOULDER IBF_VALUE_(ibf_pad_buttons, 0x100U)
#define IBF_PAD_BUTTONS_RIGHT_SHOULDER IBF_VALUE_(ibf_pad_buttons, 0x200U)
#define IBF_PAD_BUTTONS_A IBF_VALUE_(ibf_pad_buttons, 0x1000U)
#define IBF_PAD_BUTTONS_B IBF_VALUE_(ibf_pad_buttons, 0x2000U)
#define IBF_PAD_BUTTONS_X IBF_VALUE_(ibf_pad_buttons, 0x4000U)
#define IBF_PAD_BUTTONS_Y IBF_VALUE_(ibf_pad_buttons, 0x8000U)

/** Flags (u32): an OR of the IBF_PAD_INPUT_FLAGS_* bits. */
typedef uint32_t ibf_pad_input_flags;
/** Set on every write; a record without it reads neutral (bot pads stay connected: design 7.8) */
#define IBF_PAD_INPUT_FLAGS_CONNECTED IBF_VALUE_(ibf_pad_input_flags, 0x1U)

/** Enum (u8): one of the IBF_REC_RECORD_KIND_* values, or a number this header does not know. */
typedef uint8_t ibf_rec_record_kind;
/** The snapshot as published */
#define IBF_REC_RECORD_KIND_KEYFRAME IBF_VALUE_(ibf_rec_record_kind, 1U)
/** The snapshot XORed with the record before it */
#define IBF_REC_RECORD_KIND_DELTA IBF_VALUE_(ibf_rec_record_kind, 2U)

/**
 * Who answered a pad's last poll
 *
 * Enum (u8): one of the IBF_REC_PAD_SOURCE_* values, or a number this header does not know.
 */
typedef uint8_t ibf_rec_pad_source;
/** Not polled yet, or not connected */
#define IBF_REC_PAD_SOURCE_NONE IBF_VALUE_(ibf_rec_pad_source, 0U)
/** A bridge client's pad record */
#define IBF_REC_PAD_SOURCE_BOT IBF_VALUE_(ibf_rec_pad_source, 1U)
/** The host: pad.* commands, or the Navigator */
#define IBF_REC_PAD_SOURCE_SCRIPT IBF_VALUE_(ibf_rec_pad_source, 2U)
/** A real controller passed through */
#define IBF_REC_PAD_SOURCE_REAL IBF_VALUE_(ibf_rec_pad_source, 3U)

/**
 * Game phase, mapped from the menu ID by the profile
 *
 * Enum (u8): one of the IBF_PHASE_* values, or a number this header does not know.
 */
typedef uint8_t ibf_phase;
#define IBF_PHASE_UNKNOWN IBF_VALUE_(ibf_phase, 0U)
/** Splash screens and loading */
#define IBF_PHASE_BOOT IBF_VALUE_(ibf_phase, 1U)
#define IBF_PHASE_MENU IBF_VALUE_(ibf_phase, 2U)
#define IBF_PHASE_LOBBY IBF_VALUE_(ibf_phase, 3U)
#define IBF_PHASE_GET_READY IBF_VALUE_(ibf_phase, 4U)
#define IBF_PHASE_GO IBF_VALUE_(ibf_phase, 5U)
#define IBF_PHASE_PLAYING IBF_VALUE_(ibf_phase, 6U)
/** The local player is dead but the round continues */
#define IBF_PHASE_DEAD IBF_VALUE_(ibf_phase, 7U)
#define IBF_PHASE_ROUND_OVER IBF_VALUE_(ibf_phase, 8U)
#define IBF_PHASE_GAME_OVER IBF_VALUE_(ibf_phase, 9U)

/**
 * Ship or tile colour
 *
 * Enum (u8): one of the IBF_COLOR_* values, or a number this header does not know.
 */
typedef uint8_t ibf_color;
#define IBF_COLOR_WHITE IBF_VALUE_(ibf_color, 0U)
#define IBF_COLOR_BLACK IBF_VALUE_(ibf_color, 1U)
#define IBF_COLOR_UNKNOWN IBF_VALUE_(ibf_color, 255U)

/**
 * Board tile state
 *
 * Enum (u8): one of the IBF_TILE_* values, or a number this header does not know.
 */
typedef uint8_t ibf_tile;
/** Walkable by black ships */
#define IBF_TILE_WHITE IBF_VALUE_(ibf_tile, 0U)
/** Walkable by white ships */
#define IBF_TILE_BLACK IBF_VALUE_(ibf_tile, 1U)
/** No tile: outside the playfield, or a hole in the map */
#define IBF_TILE_NONE IBF_VALUE_(ibf_tile, 255U)

/**
 * One of the four shot directions
 *
 * Enum (u8): one of the IBF_DIR_* values, or a number this header does not know.
 */
typedef uint8_t ibf_dir;
#define IBF_DIR_NONE IBF_VALUE_(ibf_dir, 0U)
#define IBF_DIR_UP IBF_VALUE_(ibf_dir, 1U)
#define IBF_DIR_DOWN IBF_VALUE_(ibf_dir, 2U)
#define IBF_DIR_LEFT IBF_VALUE_(ibf_dir, 3U)
#define IBF_DIR_RIGHT IBF_VALUE_(ibf_dir, 4U)

/** Enum (u8): one of the IBF_PROJECTILE_KIND_* values, or a number this header does not know. */
typedef uint8_t ibf_projectile_kind;
#define IBF_PROJECTILE_KIND_NORMAL IBF_VALUE_(ibf_projectile_kind, 0U)
/** Red shot from a pickup */
#define IBF_PROJECTILE_KIND_FAST IBF_VALUE_(ibf_projectile_kind, 1U)
#define IBF_PROJECTILE_KIND_UNKNOWN IBF_VALUE_(ibf_projectile_kind, 255U)

/** Enum (u8): one of the IBF_PICKUP_KIND_* values, or a number this header does not know. */
typedef uint8_t ibf_pickup_kind;
/** Grants red shots; amount says how many */
#define IBF_PICKUP_KIND_FAST_SHOTS IBF_VALUE_(ibf_pickup_kind, 0U)
/** Square power-up: 4 s of breaking the cells the ship runs into, and of x1.5 speed */
#define IBF_PICKUP_KIND_BLOCK_EAT IBF_VALUE_(ibf_pickup_kind, 1U)
#define IBF_PICKUP_KIND_UNKNOWN IBF_VALUE_(ibf_pickup_kind, 255U)
/**
 * Shield power-up: 10 s in which a hit breaks the shield instead of the ship (ABI 0.6)
 *
 * Since ABI 0.6.
 */
#define IBF_PICKUP_KIND_SHIELD IBF_VALUE_(ibf_pickup_kind, 2U)

/**
 * Which game is running (ABI 0.6)
 *
 * Enum (u8): one of the IBF_GAME_TYPE_* values, or a number this header does not know. Since
 * ABI 0.6.
 */
typedef uint8_t ibf_game_type;
/** No game yet: the menus at start-up (after a game they keep its type, with no map) */
#define IBF_GAME_TYPE_NONE IBF_VALUE_(ibf_game_type, 0U)
#define IBF_GAME_TYPE_VERSUS IBF_VALUE_(ibf_game_type, 1U)
#define IBF_GAME_TYPE_ARCADE IBF_VALUE_(ibf_game_type, 2U)
#define IBF_GAME_TYPE_UNKNOWN IBF_VALUE_(ibf_game_type, 255U)

/**
 * Where the round is (ABI 0.6)
 *
 * Enum (u8): one of the IBF_ROUND_STATE_* values, or a number this header does not know. Since
 * ABI 0.6.
 */
typedef uint8_t ibf_round_state;
/** Not started: get ready, or no game */
#define IBF_ROUND_STATE_NONE IBF_VALUE_(ibf_round_state, 0U)
#define IBF_ROUND_STATE_PLAYING IBF_VALUE_(ibf_round_state, 1U)
/** A team won (or, in arcade, the last life went); the round is ending */
#define IBF_ROUND_STATE_DECIDED IBF_VALUE_(ibf_round_state, 2U)
#define IBF_ROUND_STATE_UNKNOWN IBF_VALUE_(ibf_round_state, 255U)

/**
 * A pickup spawn point's state (ABI 0.6)
 *
 * Enum (u8): one of the IBF_SPAWN_STATE_* values, or a number this header does not know. Since
 * ABI 0.6.
 */
typedef uint8_t ibf_spawn_state;
/** Spawns on the next step */
#define IBF_SPAWN_STATE_DUE IBF_VALUE_(ibf_spawn_state, 0U)
/** Its pickup is on the board */
#define IBF_SPAWN_STATE_OUT IBF_VALUE_(ibf_spawn_state, 1U)
/** Spawns in time_left seconds */
#define IBF_SPAWN_STATE_WAITING IBF_VALUE_(ibf_spawn_state, 2U)

/**
 * What an arcade enemy does (ABI 0.9)
 *
 * Enum (u8): one of the IBF_ENEMY_KIND_* values, or a number this header does not know. Since
 * ABI 0.9.
 */
typedef uint8_t ibf_enemy_kind;
#define IBF_ENEMY_KIND_UNKNOWN IBF_VALUE_(ibf_enemy_kind, 0U)
/** Breaks the cells it runs into */
#define IBF_ENEMY_KIND_SMASH IBF_VALUE_(ibf_enemy_kind, 1U)
/** Fires at the players */
#define IBF_ENEMY_KIND_SHOOT IBF_VALUE_(ibf_enemy_kind, 2U)
/** Both */
#define IBF_ENEMY_KIND_SMASH_SHOOT IBF_VALUE_(ibf_enemy_kind, 3U)

/**
 * Events derived by diffing consecutive ticks (design section 5.5)
 *
 * Enum (u16): one of the IBF_EVENT_KIND_* values, or a number this header does not know.
 */
typedef uint16_t ibf_event_kind;
/** Unused ring slot */
#define IBF_EVENT_KIND_NONE IBF_VALUE_(ibf_event_kind, 0U)
/** a = old menu ID, b = new menu ID */
#define IBF_EVENT_KIND_MENU_CHANGED IBF_VALUE_(ibf_event_kind, 1U)
#define IBF_EVENT_KIND_MATCH_STARTED IBF_VALUE_(ibf_event_kind, 2U)
/** a = round number */
#define IBF_EVENT_KIND_ROUND_STARTED IBF_VALUE_(ibf_event_kind, 3U)
/** a = winner player ID or -1 */
#define IBF_EVENT_KIND_ROUND_ENDED IBF_VALUE_(ibf_event_kind, 4U)
/** a = winner player ID, or -1 for no winner (a tie, or a match abandoned for a menu) */
#define IBF_EVENT_KIND_MATCH_ENDED IBF_VALUE_(ibf_event_kind, 5U)
#define IBF_EVENT_KIND_SHIP_SPAWNED IBF_VALUE_(ibf_event_kind, 6U)
#define IBF_EVENT_KIND_SHIP_DIED IBF_VALUE_(ibf_event_kind, 7U)
/** a = dir, b = 1 if fast */
#define IBF_EVENT_KIND_SHOT_FIRED IBF_VALUE_(ibf_event_kind, 8U)
/** a = pickup_kind, b = amount */
#define IBF_EVENT_KIND_PICKUP_SPAWNED IBF_VALUE_(ibf_event_kind, 9U)
/** a = pickup_kind, b = amount */
#define IBF_EVENT_KIND_PICKUP_TAKEN IBF_VALUE_(ibf_event_kind, 10U)
/** a = old score, b = new score */
#define IBF_EVENT_KIND_SCORE_CHANGED IBF_VALUE_(ibf_event_kind, 11U)

/**
 * Why the latest tick produced no valid snapshot
 *
 * Enum (u16): one of the IBF_INVALID_REASON_* values, or a number this header does not know.
 */
typedef uint16_t ibf_invalid_reason;
#define IBF_INVALID_REASON_NONE IBF_VALUE_(ibf_invalid_reason, 0U)
/** No profile matches the game executable */
#define IBF_INVALID_REASON_NO_PROFILE IBF_VALUE_(ibf_invalid_reason, 1U)
#define IBF_INVALID_REASON_ROOT_UNREADABLE IBF_VALUE_(ibf_invalid_reason, 2U)
/** A pointer path hit an unreadable or implausible pointer */
#define IBF_INVALID_REASON_PATH_FAULT IBF_VALUE_(ibf_invalid_reason, 3U)
/** An entity list header failed its checks */
#define IBF_INVALID_REASON_LIST_INVALID IBF_VALUE_(ibf_invalid_reason, 4U)
#define IBF_INVALID_REASON_BOARD_OUT_OF_RANGE IBF_VALUE_(ibf_invalid_reason, 5U)
#define IBF_INVALID_REASON_COUNT_OUT_OF_RANGE IBF_VALUE_(ibf_invalid_reason, 6U)
#define IBF_INVALID_REASON_NON_FINITE_VALUE IBF_VALUE_(ibf_invalid_reason, 7U)
/** An access violation was caught while reading */
#define IBF_INVALID_REASON_READ_FAULT IBF_VALUE_(ibf_invalid_reason, 8U)
/** Memory changed under the build; the retry did not help */
#define IBF_INVALID_REASON_TORN_READ IBF_VALUE_(ibf_invalid_reason, 9U)
/** A profile loaded but a required path is unresolved */
#define IBF_INVALID_REASON_PROFILE_ERROR IBF_VALUE_(ibf_invalid_reason, 10U)
/** The state module is disabled */
#define IBF_INVALID_REASON_STATE_DISABLED IBF_VALUE_(ibf_invalid_reason, 11U)

/**
 * Which hook built the snapshot (design section 4.5)
 *
 * Enum (u8): one of the IBF_TICK_SOURCE_* values, or a number this header does not know.
 */
typedef uint8_t ibf_tick_source;
/** The Present fallback: one tick per frame */
#define IBF_TICK_SOURCE_PRESENT IBF_VALUE_(ibf_tick_source, 0U)
/** The game's simulation step */
#define IBF_TICK_SOURCE_SIM_STEP IBF_VALUE_(ibf_tick_source, 1U)

/** Flags (u32): an OR of the IBF_SNAPSHOT_FLAGS_* bits. */
typedef uint32_t ibf_snapshot_flags;
#define IBF_SNAPSHOT_FLAGS_VALID IBF_VALUE_(ibf_snapshot_flags, 0x1U)
#define IBF_SNAPSHOT_FLAGS_IN_MATCH IBF_VALUE_(ibf_snapshot_flags, 0x2U)
/** A capacity was exceeded; the tail was dropped */
#define IBF_SNAPSHOT_FLAGS_TRUNCATED IBF_VALUE_(ibf_snapshot_flags, 0x4U)
#define IBF_SNAPSHOT_FLAGS_LOCKSTEP IBF_VALUE_(ibf_snapshot_flags, 0x8U)
#define IBF_SNAPSHOT_FLAGS_SIM_PAUSED IBF_VALUE_(ibf_snapshot_flags, 0x10U)
/** The overlay's console is open and takes the user's typing */
#define IBF_SNAPSHOT_FLAGS_OVERLAY_FOCUSED IBF_VALUE_(ibf_snapshot_flags, 0x20U)
/** The body is from an earlier tick; only the header is new */
#define IBF_SNAPSHOT_FLAGS_STALE IBF_VALUE_(ibf_snapshot_flags, 0x40U)

/** Flags (u16): an OR of the IBF_SHIP_FLAGS_* bits. */
typedef uint16_t ibf_ship_flags;
#define IBF_SHIP_FLAGS_SHIELD IBF_VALUE_(ibf_ship_flags, 0x1U)
#define IBF_SHIP_FLAGS_BLOCK_EAT IBF_VALUE_(ibf_ship_flags, 0x2U)
#define IBF_SHIP_FLAGS_CHARGING IBF_VALUE_(ibf_ship_flags, 0x4U)
#define IBF_SHIP_FLAGS_MOVING IBF_VALUE_(ibf_ship_flags, 0x8U)

/** Flags (u32): an OR of the IBF_SHIP_VALID_* bits. */
typedef uint32_t ibf_ship_valid;
#define IBF_SHIP_VALID_POS IBF_VALUE_(ibf_ship_valid, 0x1U)
#define IBF_SHIP_VALID_VEL IBF_VALUE_(ibf_ship_valid, 0x2U)
#define IBF_SHIP_VALID_LAST_SHOT_POS IBF_VALUE_(ibf_ship_valid, 0x4U)
#define IBF_SHIP_VALID_RELOAD_PROGRESS IBF_VALUE_(ibf_ship_valid, 0x8U)
#define IBF_SHIP_VALID_RELOAD_TIME IBF_VALUE_(ibf_ship_valid, 0x10U)
#define IBF_SHIP_VALID_TIME_ALIVE IBF_VALUE_(ibf_ship_valid, 0x20U)
#define IBF_SHIP_VALID_TIME_SINCE_SHOT IBF_VALUE_(ibf_ship_valid, 0x40U)
#define IBF_SHIP_VALID_SCORE IBF_VALUE_(ibf_ship_valid, 0x80U)
#define IBF_SHIP_VALID_MULTIPLIER IBF_VALUE_(ibf_ship_valid, 0x100U)
#define IBF_SHIP_VALID_FLAGS IBF_VALUE_(ibf_ship_valid, 0x200U)
#define IBF_SHIP_VALID_PLAYER_ID IBF_VALUE_(ibf_ship_valid, 0x400U)
#define IBF_SHIP_VALID_COLOR IBF_VALUE_(ibf_ship_valid, 0x800U)
#define IBF_SHIP_VALID_AMMO IBF_VALUE_(ibf_ship_valid, 0x1000U)
#define IBF_SHIP_VALID_MAX_AMMO IBF_VALUE_(ibf_ship_valid, 0x2000U)
#define IBF_SHIP_VALID_FAST_AMMO IBF_VALUE_(ibf_ship_valid, 0x4000U)
#define IBF_SHIP_VALID_CHARGE_DIR IBF_VALUE_(ibf_ship_valid, 0x8000U)

/**
 * Element type of a custom probe
 *
 * Enum (u16): one of the IBF_EXTRA_TYPE_* values, or a number this header does not know.
 */
typedef uint16_t ibf_extra_type;
#define IBF_EXTRA_TYPE_RAW IBF_VALUE_(ibf_extra_type, 0U)
#define IBF_EXTRA_TYPE_U8 IBF_VALUE_(ibf_extra_type, 1U)
#define IBF_EXTRA_TYPE_I8 IBF_VALUE_(ibf_extra_type, 2U)
#define IBF_EXTRA_TYPE_U16 IBF_VALUE_(ibf_extra_type, 3U)
#define IBF_EXTRA_TYPE_I16 IBF_VALUE_(ibf_extra_type, 4U)
#define IBF_EXTRA_TYPE_U32 IBF_VALUE_(ibf_extra_type, 5U)
#define IBF_EXTRA_TYPE_I32 IBF_VALUE_(ibf_extra_type, 6U)
#define IBF_EXTRA_TYPE_U64 IBF_VALUE_(ibf_extra_type, 7U)
#define IBF_EXTRA_TYPE_I64 IBF_VALUE_(ibf_extra_type, 8U)
#define IBF_EXTRA_TYPE_F32 IBF_VALUE_(ibf_extra_type, 9U)
#define IBF_EXTRA_TYPE_F64 IBF_VALUE_(ibf_extra_type, 10U)

/* Structs */

/**
 * One row of a layout table; size 0 means the region is absent
 *
 * Size 8 (0x8), align 4. Shared memory, written by the host.
 */
typedef struct ibf_region_entry {
    /**
     * offset 0x0000 (0), size 4: From the start of the bridge, or of the client block
     *
     * Access: plain (host).
     */
    uint32_t offset;
    /**
     * offset 0x0004 (4), size 4
     *
     * Access: plain (host).
     */
    uint32_t size;
} ibf_region_entry;
IBF_STATIC_ASSERT_(sizeof(ibf_region_entry) == 8, "ibf_region_entry: size 8");
IBF_STATIC_ASSERT_(IBF_ALIGNOF_(ibf_region_entry) == 4, "ibf_region_entry: align 4");
IBF_STATIC_ASSERT_(offsetof(ibf_region_entry, offset) == 0, "ibf_region_entry.offset: offset 0");
IBF_STATIC_ASSERT_(offsetof(ibf_region_entry, size) == 4, "ibf_region_entry.size: offset 4");

/**
 * One row of the client table. The client claims it by compare-and-swap from free; the host
 * frees it.
 *
 * Size 128 (0x80), align 8. Shared memory, written by the host and client.
 */
typedef struct ibf_client_entry {
    /**
     * offset 0x0000 (0), size 4
     *
     * Access: cas (host and client).
     */
    ibf_client_state state;
    /**
     * offset 0x0004 (4), size 4: Bumped by each claim: a client that no longer finds its own
     * generation was disconnected
     *
     * Access: atomic (client).
     */
    uint32_t generation;
    /**
     * offset 0x0008 (8), size 4
     *
     * Access: plain (client).
     */
    uint32_t pid;
    /**
     * offset 0x000c (12), size 4
     *
     * Access: plain (host and client).
     */
    ibf_client_caps caps;
    /**
     * offset 0x0010 (16), size 8: The client's own clock in ns (a client cannot read the
     * host's): it writes it at least every 100 ms; the host never compares it with its clock,
     * it watches it change, and a row whose state, generation and heartbeat stay unchanged for
     * 1 s is hung
     *
     * Access: atomic (client).
     */
    IBF_ALIGNAS_(8) uint64_t heartbeat_ns;
    /**
     * offset 0x0018 (24), size 8: Host clock at the claim
     *
     * Access: plain (client).
     */
    IBF_ALIGNAS_(8) uint64_t connected_ns;
    /**
     * offset 0x0020 (32), size 1: The virtual pad this client bound, or no_pad; the host goes
     * by pad_owner
     *
     * Access: plain (client).
     */
    uint8_t pad;
    /** offset 0x0021 (33), size 3, padding */
    uint8_t _pad33[3];
    /**
     * offset 0x0024 (36), size 4: 1 while the client sleeps on its tick event: the host sets
     * the event only then
     *
     * Access: atomic (client).
     */
    uint32_t waiting;
    /**
     * offset 0x0028 (40), size 32
     *
     * Access: plain (client).
     */
    char name[IBF_CLIENT_NAME_LEN];
    /** offset 0x0048 (72), size 56, padding */
    uint8_t _reserved[56];
} ibf_client_entry;
IBF_STATIC_ASSERT_(sizeof(ibf_client_entry) == 128, "ibf_client_entry: size 128");
IBF_STATIC_ASSERT_(IBF_ALIGNOF_(ibf_client_entry) == 8, "ibf_client_entry: align 8");
IBF_STATIC_ASSERT_(offsetof(ibf_client_entry, state) == 0, "ibf_client_entry.state: offset 0");
IBF_STATIC_ASSERT_(offsetof(ibf_client_entry, generation) == 4, "ibf_client_entry.generation: offset 4");
IBF_STATIC_ASSERT_(offsetof(ibf_client_entry, pid) == 8, "ibf_client_entry.pid: offset 8");
IBF_STATIC_ASSERT_(offsetof(ibf_client_entry, caps) == 12, "ibf_client_entry.caps: offset 12");
IBF_STATIC_ASSERT_(offsetof(ibf_client_entry, heartbeat_ns) == 16, "ibf_client_entry.heartbeat_ns: offset 16");
IBF_STATIC_ASSERT_(offsetof(ibf_client_entry, connected_ns) == 24, "ibf_client_entry.connected_ns: offset 24");
IBF_STATIC_ASSERT_(offsetof(ibf_client_entry, pad) == 32, "ibf_client_entry.pad: offset 32");
IBF_STATIC_ASSERT_(offsetof(ibf_client_entry, _pad33) == 33, "ibf_client_entry._pad33: offset 33");
IBF_STATIC_ASSERT_(offsetof(ibf_client_entry, waiting) == 36, "ibf_client_entry.waiting: offset 36");
IBF_STATIC_ASSERT_(offsetof(ibf_client_entry, name) == 40, "ibf_client_entry.name: offset 40");
IBF_STATIC_ASSERT_(offsetof(ibf_client_entry, _reserved) == 72, "ibf_client_entry._reserved: offset 72");

/**
 * The pad input for each game action (design 7.7): what the SDKs turn actions into, and what
 * the Navigator presses
 *
 * Size 16 (0x10), align 2. Shared memory, written by the host.
 */
typedef struct ibf_controls {
    /**
     * offset 0x0000 (0), size 1
     *
     * Access: plain (host).
     */
    ibf_control_stick move;
    /**
     * offset 0x0001 (1), size 1: Hold a tap for at least this many ticks
     * (input.min_press_ticks)
     *
     * Access: plain (host).
     */
    uint8_t min_press_ticks;
    /**
     * offset 0x0002 (2), size 2
     *
     * Access: plain (host).
     */
    ibf_pad_buttons shoot_up;
    /**
     * offset 0x0004 (4), size 2
     *
     * Access: plain (host).
     */
    ibf_pad_buttons shoot_down;
    /**
     * offset 0x0006 (6), size 2
     *
     * Access: plain (host).
     */
    ibf_pad_buttons shoot_left;
    /**
     * offset 0x0008 (8), size 2
     *
     * Access: plain (host).
     */
    ibf_pad_buttons shoot_right;
    /**
     * offset 0x000a (10), size 2
     *
     * Access: plain (host).
     */
    ibf_pad_buttons pause;
    /**
     * offset 0x000c (12), size 2: Menu confirm
     *
     * Access: plain (host).
     */
    ibf_pad_buttons confirm;
    /**
     * offset 0x000e (14), size 2: Menu back
     *
     * Access: plain (host).
     */
    ibf_pad_buttons back;
} ibf_controls;
IBF_STATIC_ASSERT_(sizeof(ibf_controls) == 16, "ibf_controls: size 16");
IBF_STATIC_ASSERT_(IBF_ALIGNOF_(ibf_controls) == 2, "ibf_controls: align 2");
IBF_STATIC_ASSERT_(offsetof(ibf_controls, move) == 0, "ibf_controls.move: offset 0");
IBF_STATIC_ASSERT_(offsetof(ibf_controls, min_press_ticks) == 1, "ibf_controls.min_press_ticks: offset 1");
IBF_STATIC_ASSERT_(offsetof(ibf_controls, shoot_up) == 2, "ibf_controls.shoot_up: offset 2");
IBF_STATIC_ASSERT_(offsetof(ibf_controls, shoot_down) == 4, "ibf_controls.shoot_down: offset 4");
IBF_STATIC_ASSERT_(offsetof(ibf_controls, shoot_left) == 6, "ibf_controls.shoot_left: offset 6");
IBF_STATIC_ASSERT_(offsetof(ibf_controls, shoot_right) == 8, "ibf_controls.shoot_right: offset 8");
IBF_STATIC_ASSERT_(offsetof(ibf_controls, pause) == 10, "ibf_controls.pause: offset 10");
IBF_STATIC_ASSERT_(offsetof(ibf_controls, confirm) == 12, "ibf_controls.confirm: offset 12");
IBF_STATIC_ASSERT_(offsetof(ibf_controls, back) == 14, "ibf_controls.back: offset 14");

/**
 * The first bytes of the bridge. Written by the host, except the client table rows and the
 * commands' event.
 *
 * Size 1304 (0x518), align 8. Extensible: it may grow at its end in a later ABI version, so
 * readers take its size from the data, not from sizeof. Shared memory, written by the host.
 */
typedef struct ibf_bridge_header {
    /**
     * offset 0x0000 (0), size 4: bridge_magic
     *
     * Access: plain (host). Always IBF_BRIDGE_MAGIC.
     */
    uint32_t magic;
    /**
     * offset 0x0004 (4), size 2
     *
     * Access: plain (host).
     */
    uint16_t abi_major;
    /**
     * offset 0x0006 (6), size 2
     *
     * Access: plain (host).
     */
    uint16_t abi_minor;
    /**
     * offset 0x0008 (8), size 4: sizeof(bridge_header) as the host built it
     *
     * Access: plain (host).
     */
    uint32_t header_size;
    /**
     * offset 0x000c (12), size 4: Bytes in the whole bridge
     *
     * Access: plain (host).
     */
    uint32_t total_size;
    /**
     * offset 0x0010 (16), size 4
     *
     * Access: plain (host).
     */
    uint32_t host_pid;
    /**
     * offset 0x0014 (20), size 4: Changes when the host reloads; the old host's clients find
     * their rows freed and connect again
     *
     * Access: atomic (host).
     */
    uint32_t host_generation;
    /**
     * offset 0x0018 (24), size 4
     *
     * Access: atomic (host).
     */
    ibf_host_state host_state;
    /**
     * offset 0x001c (28), size 4
     *
     * Access: plain (host).
     */
    uint32_t region_count;
    /**
     * offset 0x0020 (32), size 32
     *
     * Access: plain (host).
     */
    char host_version[IBF_VERSION_LEN];
    /**
     * offset 0x0040 (64), size 64: Indexed by bridge_region
     *
     * Access: plain (host). Entries in use: region_count.
     */
    ibf_region_entry regions[IBF_MAX_REGIONS];
    /**
     * offset 0x0080 (128), size 8: A host clock reading (QueryPerformanceCounter in ns)...
     *
     * Access: plain (host).
     */
    IBF_ALIGNAS_(8) uint64_t clock_mono_ns;
    /**
     * offset 0x0088 (136), size 8: ...and the Unix time then: unix = clock_unix_ns + (t -
     * clock_mono_ns)
     *
     * Access: plain (host).
     */
    IBF_ALIGNAS_(8) int64_t clock_unix_ns;
    /**
     * offset 0x0090 (144), size 4
     *
     * Access: plain (host).
     */
    uint32_t ring_slots;
    /**
     * offset 0x0094 (148), size 4
     *
     * Access: plain (host).
     */
    uint32_t ring_slot_size;
    /**
     * offset 0x0098 (152), size 4
     *
     * Access: plain (host).
     */
    uint32_t max_clients;
    /**
     * offset 0x009c (156), size 4
     *
     * Access: plain (host).
     */
    uint32_t client_block_size;
    /**
     * offset 0x00a0 (160), size 4
     *
     * Access: plain (host).
     */
    uint32_t client_entry_size;
    /**
     * offset 0x00a4 (164), size 4: Per pad: the client row that owns it, no_pad for a free bot
     * pad, or pad_not_bot. Clients bind by compare-and-swap of the four bytes as one u32
     *
     * Access: cas, one u32 word (host and client).
     */
    uint8_t pad_owner[IBF_MAX_PLAYERS];
    /** offset 0x00a8 (168), size 24, padding */
    uint8_t _pad168[24];
    /**
     * offset 0x00c0 (192), size 8: Snapshots published; the newest is in slot (snapshot_seq -
     * 1) % ring_slots. On its own cache line
     *
     * Access: atomic (host).
     */
    IBF_ALIGNAS_(8) uint64_t snapshot_seq;
    /** offset 0x00c8 (200), size 56, padding */
    uint8_t _pad200[56];
    /**
     * offset 0x0100 (256), size 1024
     *
     * Access: plain (host and client).
     */
    ibf_client_entry clients[IBF_MAX_CLIENTS];
    /**
     * offset 0x0500 (1280), size 16, since ABI 0.4: The pad input for each game action, from
     * ibf.toml's [controls] (ABI 0.4)
     *
     * Access: plain (host).
     */
    ibf_controls controls;
    /**
     * offset 0x0510 (1296), size 1, since ABI 0.7: in lockstep the host waits for each tick's
     * answers, and a client sets the input event after writing its pad
     *
     * Access: atomic (host).
     */
    ibf_run_mode run_mode;
    /**
     * offset 0x0511 (1297), size 1, since ABI 0.7: running, or paused by sim.pause
     *
     * Access: atomic (host).
     */
    ibf_sim_state sim_state;
    /** offset 0x0512 (1298), size 2, padding */
    uint8_t _pad1298[2];
    /**
     * offset 0x0514 (1300), size 4, since ABI 0.7: how long the host waits for a tick's answers
     * in lockstep
     *
     * Access: plain (host).
     */
    uint32_t lockstep_timeout_ms;
} ibf_bridge_header;
IBF_STATIC_ASSERT_(sizeof(ibf_bridge_header) == 1304, "ibf_bridge_header: size 1304");
IBF_STATIC_ASSERT_(IBF_ALIGNOF_(ibf_bridge_header) == 8, "ibf_bridge_header: align 8");
IBF_STATIC_ASSERT_(offsetof(ibf_bridge_header, magic) == 0, "ibf_bridge_header.magic: offset 0");
IBF_STATIC_ASSERT_(offsetof(ibf_bridge_header, abi_major) == 4, "ibf_bridge_header.abi_major: offset 4");
IBF_STATIC_ASSERT_(offsetof(ibf_bridge_header, abi_minor) == 6, "ibf_bridge_header.abi_minor: offset 6");
IBF_STATIC_ASSERT_(offsetof(ibf_bridge_header, header_size) == 8, "ibf_bridge_header.header_size: offset 8");
IBF_STATIC_ASSERT_(offsetof(ibf_bridge_header, total_size) == 12, "ibf_bridge_header.total_size: offset 12");
IBF_STATIC_ASSERT_(offsetof(ibf_bridge_header, host_pid) == 16, "ibf_bridge_header.host_pid: offset 16");
IBF_STATIC_ASSERT_(offsetof(ibf_bridge_header, host_generation) == 20, "ibf_bridge_header.host_generation: offset 20");
IBF_STATIC_ASSERT_(offsetof(ibf_bridge_header, host_state) == 24, "ibf_bridge_header.host_state: offset 24");
IBF_STATIC_ASSERT_(offsetof(ibf_bridge_header, region_count) == 28, "ibf_bridge_header.region_count: offset 28");
IBF_STATIC_ASSERT_(offsetof(ibf_bridge_header, host_version) == 32, "ibf_bridge_header.host_version: offset 32");
IBF_STATIC_ASSERT_(offsetof(ibf_bridge_header, regions) == 64, "ibf_bridge_header.regions: offset 64");
IBF_STATIC_ASSERT_(offsetof(ibf_bridge_header, clock_mono_ns) == 128, "ibf_bridge_header.clock_mono_ns: offset 128");
IBF_STATIC_ASSERT_(offsetof(ibf_bridge_header, clock_unix_ns) == 136, "ibf_bridge_header.clock_unix_ns: offset 136");
IBF_STATIC_ASSERT_(offsetof(ibf_bridge_header, ring_slots) == 144, "ibf_bridge_header.ring_slots: offset 144");
IBF_STATIC_ASSERT_(offsetof(ibf_bridge_header, ring_slot_size) == 148, "ibf_bridge_header.ring_slot_size: offset 148");
IBF_STATIC_ASSERT_(offsetof(ibf_bridge_header, max_clients) == 152, "ibf_bridge_header.max_clients: offset 152");
IBF_STATIC_ASSERT_(offsetof(ibf_bridge_header, client_block_size) == 156, "ibf_bridge_header.client_block_size: offset 156");
IBF_STATIC_ASSERT_(offsetof(ibf_bridge_header, client_entry_size) == 160, "ibf_bridge_header.client_entry_size: offset 160");
IBF_STATIC_ASSERT_(offsetof(ibf_bridge_header, pad_owner) == 164, "ibf_bridge_header.pad_owner: offset 164");
IBF_STATIC_ASSERT_(offsetof(ibf_bridge_header, _pad168) == 168, "ibf_bridge_header._pad168: offset 168");
IBF_STATIC_ASSERT_(offsetof(ibf_bridge_header, snapshot_seq) == 192, "ibf_bridge_header.snapshot_seq: offset 192");
IBF_STATIC_ASSERT_(offsetof(ibf_bridge_header, _pad200) == 200, "ibf_bridge_header._pad200: offset 200");
IBF_STATIC_ASSERT_(offsetof(ibf_bridge_header, clients) == 256, "ibf_bridge_header.clients: offset 256");
IBF_STATIC_ASSERT_(offsetof(ibf_bridge_header, controls) == 1280, "ibf_bridge_header.controls: offset 1280");
IBF_STATIC_ASSERT_(offsetof(ibf_bridge_header, run_mode) == 1296, "ibf_bridge_header.run_mode: offset 1296");
IBF_STATIC_ASSERT_(offsetof(ibf_bridge_header, sim_state) == 1297, "ibf_bridge_header.sim_state: offset 1297");
IBF_STATIC_ASSERT_(offsetof(ibf_bridge_header, _pad1298) == 1298, "ibf_bridge_header._pad1298: offset 1298");
IBF_STATIC_ASSERT_(offsetof(ibf_bridge_header, lockstep_timeout_ms) == 1300, "ibf_bridge_header.lockstep_timeout_ms: offset 1300");

/**
 * The start of a client's draw region. The lists follow it, buffer_size bytes apart
 *
 * Size 64 (0x40), align 4. Shared memory, written by the host.
 */
typedef struct ibf_draw_header {
    /**
     * offset 0x0000 (0), size 4: Bits 0-1: the shared list's index; bit 2: it is fresh (a list
     * waits for the host). Swapped whole by both sides
     *
     * Access: cas (host and client).
     */
    uint32_t state;
    /**
     * offset 0x0004 (4), size 4: Host: draw_buffers
     *
     * Access: plain (host).
     */
    uint32_t buffers;
    /**
     * offset 0x0008 (8), size 4: Host: bytes from one list's header to the next's
     *
     * Access: plain (host).
     */
    uint32_t buffer_size;
    /**
     * offset 0x000c (12), size 4: Host: commands a list holds
     *
     * Access: plain (host).
     */
    uint32_t max_commands;
    /**
     * offset 0x0010 (16), size 4: Host: payload bytes a list holds
     *
     * Access: plain (host).
     */
    uint32_t max_payload;
    /**
     * offset 0x0014 (20), size 4: Client: lists published
     *
     * Access: atomic (client).
     */
    uint32_t published;
    /** offset 0x0018 (24), size 40, padding */
    uint8_t _pad24[40];
} ibf_draw_header;
IBF_STATIC_ASSERT_(sizeof(ibf_draw_header) == 64, "ibf_draw_header: size 64");
IBF_STATIC_ASSERT_(IBF_ALIGNOF_(ibf_draw_header) == 4, "ibf_draw_header: align 4");
IBF_STATIC_ASSERT_(offsetof(ibf_draw_header, state) == 0, "ibf_draw_header.state: offset 0");
IBF_STATIC_ASSERT_(offsetof(ibf_draw_header, buffers) == 4, "ibf_draw_header.buffers: offset 4");
IBF_STATIC_ASSERT_(offsetof(ibf_draw_header, buffer_size) == 8, "ibf_draw_header.buffer_size: offset 8");
IBF_STATIC_ASSERT_(offsetof(ibf_draw_header, max_commands) == 12, "ibf_draw_header.max_commands: offset 12");
IBF_STATIC_ASSERT_(offsetof(ibf_draw_header, max_payload) == 16, "ibf_draw_header.max_payload: offset 16");
IBF_STATIC_ASSERT_(offsetof(ibf_draw_header, published) == 20, "ibf_draw_header.published: offset 20");
IBF_STATIC_ASSERT_(offsetof(ibf_draw_header, _pad24) == 24, "ibf_draw_header._pad24: offset 24");

/**
 * One draw list: this header, max_commands draw_cmd, then max_payload bytes of payload
 *
 * Size 64 (0x40), align 8. Shared memory, written by the client.
 */
typedef struct ibf_draw_list_header {
    /**
     * offset 0x0000 (0), size 4: Client: the list's number
     *
     * Access: plain (client).
     */
    uint32_t seq;
    /**
     * offset 0x0004 (4), size 4: Commands in the list
     *
     * Access: plain (client).
     */
    uint32_t count;
    /**
     * offset 0x0008 (8), size 4: Bytes of payload in use
     *
     * Access: plain (client).
     */
    uint32_t payload_len;
    /**
     * offset 0x000c (12), size 4: Shown until replaced or this long after the host takes it; 0
     * means 500
     *
     * Access: plain (client).
     */
    uint32_t ttl_ms;
    /**
     * offset 0x0010 (16), size 4
     *
     * Access: plain (client).
     */
    ibf_draw_list_flags flags;
    /**
     * offset 0x0014 (20), size 4: Commands dropped because the list was full
     *
     * Access: plain (client).
     */
    uint32_t dropped;
    /**
     * offset 0x0018 (24), size 8: The tick the list was drawn for
     *
     * Access: plain (client).
     */
    IBF_ALIGNAS_(8) uint64_t for_tick;
    /** offset 0x0020 (32), size 32, padding */
    uint8_t _pad32[32];
} ibf_draw_list_header;
IBF_STATIC_ASSERT_(sizeof(ibf_draw_list_header) == 64, "ibf_draw_list_header: size 64");
IBF_STATIC_ASSERT_(IBF_ALIGNOF_(ibf_draw_list_header) == 8, "ibf_draw_list_header: align 8");
IBF_STATIC_ASSERT_(offsetof(ibf_draw_list_header, seq) == 0, "ibf_draw_list_header.seq: offset 0");
IBF_STATIC_ASSERT_(offsetof(ibf_draw_list_header, count) == 4, "ibf_draw_list_header.count: offset 4");
IBF_STATIC_ASSERT_(offsetof(ibf_draw_list_header, payload_len) == 8, "ibf_draw_list_header.payload_len: offset 8");
IBF_STATIC_ASSERT_(offsetof(ibf_draw_list_header, ttl_ms) == 12, "ibf_draw_list_header.ttl_ms: offset 12");
IBF_STATIC_ASSERT_(offsetof(ibf_draw_list_header, flags) == 16, "ibf_draw_list_header.flags: offset 16");
IBF_STATIC_ASSERT_(offsetof(ibf_draw_list_header, dropped) == 20, "ibf_draw_list_header.dropped: offset 20");
IBF_STATIC_ASSERT_(offsetof(ibf_draw_list_header, for_tick) == 24, "ibf_draw_list_header.for_tick: offset 24");
IBF_STATIC_ASSERT_(offsetof(ibf_draw_list_header, _pad32) == 32, "ibf_draw_list_header._pad32: offset 32");

/**
 * The start of a client's parameters: the client's definitions, then the host's values
 *
 * Size 64 (0x40), align 4. Shared memory, written by the host. Followed by `defs`
 * (param_def[max_params]) at offset 64. Followed by `values` (param_value[max_params]) at
 * offset 8256.
 */
typedef struct ibf_params_header {
    /**
     * offset 0x0000 (0), size 4: Client: odd while it writes the definitions
     *
     * Access: atomic (client).
     */
    uint32_t defs_seq;
    /**
     * offset 0x0004 (4), size 4: Client: definitions in use
     *
     * Access: seqlock param_defs (client).
     */
    uint32_t def_count;
    /**
     * offset 0x0008 (8), size 4: Host: odd while it writes the values
     *
     * Access: atomic (host).
     */
    uint32_t values_seq;
    /**
     * offset 0x000c (12), size 4: Host: bumped with every change of a value
     *
     * Access: atomic (host).
     */
    uint32_t changes;
    /**
     * offset 0x0010 (16), size 4: Host: definitions the area holds
     *
     * Access: plain (host).
     */
    uint32_t max_params;
    /** offset 0x0014 (20), size 44, padding */
    uint8_t _pad20[44];
} ibf_params_header;
IBF_STATIC_ASSERT_(sizeof(ibf_params_header) == 64, "ibf_params_header: size 64");
IBF_STATIC_ASSERT_(IBF_ALIGNOF_(ibf_params_header) == 4, "ibf_params_header: align 4");
IBF_STATIC_ASSERT_(offsetof(ibf_params_header, defs_seq) == 0, "ibf_params_header.defs_seq: offset 0");
IBF_STATIC_ASSERT_(offsetof(ibf_params_header, def_count) == 4, "ibf_params_header.def_count: offset 4");
IBF_STATIC_ASSERT_(offsetof(ibf_params_header, values_seq) == 8, "ibf_params_header.values_seq: offset 8");
IBF_STATIC_ASSERT_(offsetof(ibf_params_header, changes) == 12, "ibf_params_header.changes: offset 12");
IBF_STATIC_ASSERT_(offsetof(ibf_params_header, max_params) == 16, "ibf_params_header.max_params: offset 16");
IBF_STATIC_ASSERT_(offsetof(ibf_params_header, _pad20) == 20, "ibf_params_header._pad20: offset 20");

/**
 * One parameter a client declares (design 8.6). The host shows it as a control in the Bots
 * panel
 *
 * Size 256 (0x100), align 8.
 */
typedef struct ibf_param_def {
    /** offset 0x0000 (0), size 32 */
    char name[IBF_PARAM_NAME_LEN];
    /** offset 0x0020 (32), size 1 */
    ibf_param_kind kind;
    /** offset 0x0021 (33), size 1: enum: options in options */
    uint8_t option_count;
    /** offset 0x0022 (34), size 6, padding */
    uint8_t _pad34[6];
    /** offset 0x0028 (40), size 8 */
    IBF_ALIGNAS_(8) double default_value;
    /** offset 0x0030 (48), size 8: int and float */
    IBF_ALIGNAS_(8) double min;
    /** offset 0x0038 (56), size 8 */
    IBF_ALIGNAS_(8) double max;
    /** offset 0x0040 (64), size 8: int and float: the control's step; 0 for none */
    IBF_ALIGNAS_(8) double step;
    /** offset 0x0048 (72), size 96 */
    char help[IBF_PARAM_HELP_LEN];
    /** offset 0x00a8 (168), size 88: enum: the options' names, separated by '|' */
    char options[IBF_PARAM_OPTIONS_LEN];
} ibf_param_def;
IBF_STATIC_ASSERT_(sizeof(ibf_param_def) == 256, "ibf_param_def: size 256");
IBF_STATIC_ASSERT_(IBF_ALIGNOF_(ibf_param_def) == 8, "ibf_param_def: align 8");
IBF_STATIC_ASSERT_(offsetof(ibf_param_def, name) == 0, "ibf_param_def.name: offset 0");
IBF_STATIC_ASSERT_(offsetof(ibf_param_def, kind) == 32, "ibf_param_def.kind: offset 32");
IBF_STATIC_ASSERT_(offsetof(ibf_param_def, option_count) == 33, "ibf_param_def.option_count: offset 33");
IBF_STATIC_ASSERT_(offsetof(ibf_param_def, _pad34) == 34, "ibf_param_def._pad34: offset 34");
IBF_STATIC_ASSERT_(offsetof(ibf_param_def, default_value) == 40, "ibf_param_def.default_value: offset 40");
IBF_STATIC_ASSERT_(offsetof(ibf_param_def, min) == 48, "ibf_param_def.min: offset 48");
IBF_STATIC_ASSERT_(offsetof(ibf_param_def, max) == 56, "ibf_param_def.max: offset 56");
IBF_STATIC_ASSERT_(offsetof(ibf_param_def, step) == 64, "ibf_param_def.step: offset 64");
IBF_STATIC_ASSERT_(offsetof(ibf_param_def, help) == 72, "ibf_param_def.help: offset 72");
IBF_STATIC_ASSERT_(offsetof(ibf_param_def, options) == 168, "ibf_param_def.options: offset 168");

/**
 * One parameter's value, written by the host
 *
 * Size 16 (0x10), align 8.
 */
typedef struct ibf_param_value {
    /** offset 0x0000 (0), size 8 */
    IBF_ALIGNAS_(8) double value;
    /**
     * offset 0x0008 (8), size 4: Bumped by every change, so a button's presses and a set to the
     * same value count
     */
    uint32_t changes;
    /** offset 0x000c (12), size 4, padding */
    uint8_t _pad12[4];
} ibf_param_value;
IBF_STATIC_ASSERT_(sizeof(ibf_param_value) == 16, "ibf_param_value: size 16");
IBF_STATIC_ASSERT_(IBF_ALIGNOF_(ibf_param_value) == 8, "ibf_param_value: align 8");
IBF_STATIC_ASSERT_(offsetof(ibf_param_value, value) == 0, "ibf_param_value.value: offset 0");
IBF_STATIC_ASSERT_(offsetof(ibf_param_value, changes) == 8, "ibf_param_value.changes: offset 8");
IBF_STATIC_ASSERT_(offsetof(ibf_param_value, _pad12) == 12, "ibf_param_value._pad12: offset 12");

/**
 * The start of a client's stats. The client writes both halves: the stats under seq, and its
 * tick facts, which ibf_client keeps
 *
 * Size 64 (0x40), align 8. Shared memory, written by the client. Followed by `entries`
 * (stat_entry[max_stats]) at offset 64.
 */
typedef struct ibf_stats_header {
    /**
     * offset 0x0000 (0), size 4: Client: odd while it writes the stats
     *
     * Access: atomic (client).
     */
    uint32_t seq;
    /**
     * offset 0x0004 (4), size 4: Client: stats in use
     *
     * Access: seqlock stats (client).
     */
    uint32_t count;
    /**
     * offset 0x0008 (8), size 4: Host: entries the area holds
     *
     * Access: plain (host).
     */
    uint32_t max_stats;
    /** offset 0x000c (12), size 4, padding */
    uint8_t _pad12[4];
    /**
     * offset 0x0010 (16), size 8: Client: snapshots it waited for and got
     *
     * Access: atomic (client).
     */
    IBF_ALIGNAS_(8) uint64_t ticks;
    /**
     * offset 0x0018 (24), size 8: Client: publications it missed (latest wins)
     *
     * Access: atomic (client).
     */
    IBF_ALIGNAS_(8) uint64_t skipped;
    /**
     * offset 0x0020 (32), size 4: Client: publish-to-wake over its last ticks, median
     *
     * Access: plain (client).
     */
    float wake_p50_us;
    /**
     * offset 0x0024 (36), size 4
     *
     * Access: plain (client).
     */
    float wake_p99_us;
    /** offset 0x0028 (40), size 24, padding */
    uint8_t _pad40[24];
} ibf_stats_header;
IBF_STATIC_ASSERT_(sizeof(ibf_stats_header) == 64, "ibf_stats_header: size 64");
IBF_STATIC_ASSERT_(IBF_ALIGNOF_(ibf_stats_header) == 8, "ibf_stats_header: align 8");
IBF_STATIC_ASSERT_(offsetof(ibf_stats_header, seq) == 0, "ibf_stats_header.seq: offset 0");
IBF_STATIC_ASSERT_(offsetof(ibf_stats_header, count) == 4, "ibf_stats_header.count: offset 4");
IBF_STATIC_ASSERT_(offsetof(ibf_stats_header, max_stats) == 8, "ibf_stats_header.max_stats: offset 8");
IBF_STATIC_ASSERT_(offsetof(ibf_stats_header, _pad12) == 12, "ibf_stats_header._pad12: offset 12");
IBF_STATIC_ASSERT_(offsetof(ibf_stats_header, ticks) == 16, "ibf_stats_header.ticks: offset 16");
IBF_STATIC_ASSERT_(offsetof(ibf_stats_header, skipped) == 24, "ibf_stats_header.skipped: offset 24");
IBF_STATIC_ASSERT_(offsetof(ibf_stats_header, wake_p50_us) == 32, "ibf_stats_header.wake_p50_us: offset 32");
IBF_STATIC_ASSERT_(offsetof(ibf_stats_header, wake_p99_us) == 36, "ibf_stats_header.wake_p99_us: offset 36");
IBF_STATIC_ASSERT_(offsetof(ibf_stats_header, _pad40) == 40, "ibf_stats_header._pad40: offset 40");

/**
 * One stat: a number or a short text
 *
 * Size 64 (0x40), align 8.
 */
typedef struct ibf_stat_entry {
    /** offset 0x0000 (0), size 24 */
    char name[IBF_STAT_NAME_LEN];
    /** offset 0x0018 (24), size 1 */
    ibf_stat_kind kind;
    /** offset 0x0019 (25), size 1 */
    ibf_stat_flags flags;
    /** offset 0x001a (26), size 6, padding */
    uint8_t _pad26[6];
    /** offset 0x0020 (32), size 8: number */
    IBF_ALIGNAS_(8) double value;
    /** offset 0x0028 (40), size 24: text */
    char text[IBF_STAT_TEXT_LEN];
} ibf_stat_entry;
IBF_STATIC_ASSERT_(sizeof(ibf_stat_entry) == 64, "ibf_stat_entry: size 64");
IBF_STATIC_ASSERT_(IBF_ALIGNOF_(ibf_stat_entry) == 8, "ibf_stat_entry: align 8");
IBF_STATIC_ASSERT_(offsetof(ibf_stat_entry, name) == 0, "ibf_stat_entry.name: offset 0");
IBF_STATIC_ASSERT_(offsetof(ibf_stat_entry, kind) == 24, "ibf_stat_entry.kind: offset 24");
IBF_STATIC_ASSERT_(offsetof(ibf_stat_entry, flags) == 25, "ibf_stat_entry.flags: offset 25");
IBF_STATIC_ASSERT_(offsetof(ibf_stat_entry, _pad26) == 26, "ibf_stat_entry._pad26: offset 26");
IBF_STATIC_ASSERT_(offsetof(ibf_stat_entry, value) == 32, "ibf_stat_entry.value: offset 32");
IBF_STATIC_ASSERT_(offsetof(ibf_stat_entry, text) == 40, "ibf_stat_entry.text: offset 40");

/**
 * A client's command mailbox: one request at a time. The request text follows the header, then
 * the response text
 *
 * Size 64 (0x40), align 4. Shared memory, written by the host.
 */
typedef struct ibf_mailbox_header {
    /**
     * offset 0x0000 (0), size 4: Client: bumped (release) after each request's text and length
     * are written
     *
     * Access: atomic (client).
     */
    uint32_t request_seq;
    /**
     * offset 0x0004 (4), size 4: Client: bytes of the request, at most request_capacity - 1
     *
     * Access: plain (client).
     */
    uint32_t request_len;
    /**
     * offset 0x0008 (8), size 4: Host: the request_seq answered, stored (release) after the
     * rest
     *
     * Access: atomic (host).
     */
    uint32_t response_seq;
    /**
     * offset 0x000c (12), size 4: Host
     *
     * Access: plain (host).
     */
    ibf_command_status status;
    /**
     * offset 0x0010 (16), size 4: Host: bytes of the result in the response area
     *
     * Access: plain (host).
     */
    uint32_t response_len;
    /**
     * offset 0x0014 (20), size 4: Host: bytes of the whole result; more than response_len when
     * it was cut
     *
     * Access: plain (host).
     */
    uint32_t response_total;
    /**
     * offset 0x0018 (24), size 4: Host: bytes of the request area
     *
     * Access: plain (host).
     */
    uint32_t request_capacity;
    /**
     * offset 0x001c (28), size 4: Host: bytes of the response area, which follows the request
     * area
     *
     * Access: plain (host).
     */
    uint32_t response_capacity;
    /** offset 0x0020 (32), size 32, padding */
    uint8_t _pad32[32];
} ibf_mailbox_header;
IBF_STATIC_ASSERT_(sizeof(ibf_mailbox_header) == 64, "ibf_mailbox_header: size 64");
IBF_STATIC_ASSERT_(IBF_ALIGNOF_(ibf_mailbox_header) == 4, "ibf_mailbox_header: align 4");
IBF_STATIC_ASSERT_(offsetof(ibf_mailbox_header, request_seq) == 0, "ibf_mailbox_header.request_seq: offset 0");
IBF_STATIC_ASSERT_(offsetof(ibf_mailbox_header, request_len) == 4, "ibf_mailbox_header.request_len: offset 4");
IBF_STATIC_ASSERT_(offsetof(ibf_mailbox_header, response_seq) == 8, "ibf_mailbox_header.response_seq: offset 8");
IBF_STATIC_ASSERT_(offsetof(ibf_mailbox_header, status) == 12, "ibf_mailbox_header.status: offset 12");
IBF_STATIC_ASSERT_(offsetof(ibf_mailbox_header, response_len) == 16, "ibf_mailbox_header.response_len: offset 16");
IBF_STATIC_ASSERT_(offsetof(ibf_mailbox_header, response_total) == 20, "ibf_mailbox_header.response_total: offset 20");
IBF_STATIC_ASSERT_(offsetof(ibf_mailbox_header, request_capacity) == 24, "ibf_mailbox_header.request_capacity: offset 24");
IBF_STATIC_ASSERT_(offsetof(ibf_mailbox_header, response_capacity) == 28, "ibf_mailbox_header.response_capacity: offset 28");
IBF_STATIC_ASSERT_(offsetof(ibf_mailbox_header, _pad32) == 32, "ibf_mailbox_header._pad32: offset 32");

/**
 * The start of a snapshot ring slot; the snapshot and its extras follow it
 *
 * Size 64 (0x40), align 8. Shared memory, written by the host. Followed by `payload` (snapshot)
 * at offset 64.
 */
typedef struct ibf_ring_slot_header {
    /**
     * offset 0x0000 (0), size 4: Odd while the host writes the slot
     *
     * Access: atomic (host).
     */
    uint32_t seq;
    /**
     * offset 0x0004 (4), size 4: Payload bytes: the snapshot, then its extras
     *
     * Access: seqlock ring_slot (host).
     */
    uint32_t size;
    /**
     * offset 0x0008 (8), size 8: The snapshot_seq this slot was published as
     *
     * Access: seqlock ring_slot (host).
     */
    IBF_ALIGNAS_(8) uint64_t publish_seq;
    /**
     * offset 0x0010 (16), size 8
     *
     * Access: seqlock ring_slot (host).
     */
    IBF_ALIGNAS_(8) uint64_t tick;
    /**
     * offset 0x0018 (24), size 8: Host clock when the payload was complete
     *
     * Access: seqlock ring_slot (host).
     */
    IBF_ALIGNAS_(8) uint64_t publish_ns;
    /** offset 0x0020 (32), size 32, padding */
    uint8_t _pad32[32];
} ibf_ring_slot_header;
IBF_STATIC_ASSERT_(sizeof(ibf_ring_slot_header) == 64, "ibf_ring_slot_header: size 64");
IBF_STATIC_ASSERT_(IBF_ALIGNOF_(ibf_ring_slot_header) == 8, "ibf_ring_slot_header: align 8");
IBF_STATIC_ASSERT_(offsetof(ibf_ring_slot_header, seq) == 0, "ibf_ring_slot_header.seq: offset 0");
IBF_STATIC_ASSERT_(offsetof(ibf_ring_slot_header, size) == 4, "ibf_ring_slot_header.size: offset 4");
IBF_STATIC_ASSERT_(offsetof(ibf_ring_slot_header, publish_seq) == 8, "ibf_ring_slot_header.publish_seq: offset 8");
IBF_STATIC_ASSERT_(offsetof(ibf_ring_slot_header, tick) == 16, "ibf_ring_slot_header.tick: offset 16");
IBF_STATIC_ASSERT_(offsetof(ibf_ring_slot_header, publish_ns) == 24, "ibf_ring_slot_header.publish_ns: offset 24");
IBF_STATIC_ASSERT_(offsetof(ibf_ring_slot_header, _pad32) == 32, "ibf_ring_slot_header._pad32: offset 32");

/**
 * One log entry in the host log ring or a client's log queue; the source, then the text, follow
 * it
 *
 * Size 40 (0x28), align 8.
 */
typedef struct ibf_log_entry {
    /** offset 0x0000 (0), size 2: Bytes of the entry with its source and text, a multiple of 8 */
    uint16_t size;
    /** offset 0x0002 (2), size 1 */
    ibf_log_entry_kind kind;
    /** offset 0x0003 (3), size 1 */
    ibf_log_level level;
    /** offset 0x0004 (4), size 1 */
    uint8_t source_len;
    /** offset 0x0005 (5), size 1, padding */
    uint8_t _pad5;
    /** offset 0x0006 (6), size 2 */
    uint16_t text_len;
    /** offset 0x0008 (8), size 4 */
    uint32_t thread;
    /** offset 0x000c (12), size 4, padding */
    uint8_t _pad12[4];
    /** offset 0x0010 (16), size 8: Entries written before this one */
    IBF_ALIGNAS_(8) uint64_t seq;
    /** offset 0x0018 (24), size 8: Host clock */
    IBF_ALIGNAS_(8) uint64_t time_ns;
    /** offset 0x0020 (32), size 8 */
    IBF_ALIGNAS_(8) uint64_t tick;
} ibf_log_entry;
IBF_STATIC_ASSERT_(sizeof(ibf_log_entry) == 40, "ibf_log_entry: size 40");
IBF_STATIC_ASSERT_(IBF_ALIGNOF_(ibf_log_entry) == 8, "ibf_log_entry: align 8");
IBF_STATIC_ASSERT_(offsetof(ibf_log_entry, size) == 0, "ibf_log_entry.size: offset 0");
IBF_STATIC_ASSERT_(offsetof(ibf_log_entry, kind) == 2, "ibf_log_entry.kind: offset 2");
IBF_STATIC_ASSERT_(offsetof(ibf_log_entry, level) == 3, "ibf_log_entry.level: offset 3");
IBF_STATIC_ASSERT_(offsetof(ibf_log_entry, source_len) == 4, "ibf_log_entry.source_len: offset 4");
IBF_STATIC_ASSERT_(offsetof(ibf_log_entry, _pad5) == 5, "ibf_log_entry._pad5: offset 5");
IBF_STATIC_ASSERT_(offsetof(ibf_log_entry, text_len) == 6, "ibf_log_entry.text_len: offset 6");
IBF_STATIC_ASSERT_(offsetof(ibf_log_entry, thread) == 8, "ibf_log_entry.thread: offset 8");
IBF_STATIC_ASSERT_(offsetof(ibf_log_entry, _pad12) == 12, "ibf_log_entry._pad12: offset 12");
IBF_STATIC_ASSERT_(offsetof(ibf_log_entry, seq) == 16, "ibf_log_entry.seq: offset 16");
IBF_STATIC_ASSERT_(offsetof(ibf_log_entry, time_ns) == 24, "ibf_log_entry.time_ns: offset 24");
IBF_STATIC_ASSERT_(offsetof(ibf_log_entry, tick) == 32, "ibf_log_entry.tick: offset 32");

/**
 * The host log ring: one writer (the host's log drain), any number of readers, oldest
 * overwritten
 *
 * Size 64 (0x40), align 8. Shared memory, written by the host.
 */
typedef struct ibf_log_ring_header {
    /**
     * offset 0x0000 (0), size 8: Bytes ever written; the next entry starts at write_pos %
     * capacity
     *
     * Access: atomic (host).
     */
    IBF_ALIGNAS_(8) uint64_t write_pos;
    /**
     * offset 0x0008 (8), size 8: The oldest whole entry; a reader behind it was lapped
     *
     * Access: atomic (host).
     */
    IBF_ALIGNAS_(8) uint64_t tail_pos;
    /**
     * offset 0x0010 (16), size 4
     *
     * Access: plain (host).
     */
    uint32_t capacity;
    /** offset 0x0014 (20), size 4, padding */
    uint8_t _pad20[4];
    /**
     * offset 0x0018 (24), size 8: Entries written
     *
     * Access: atomic (host).
     */
    IBF_ALIGNAS_(8) uint64_t entries;
    /** offset 0x0020 (32), size 32, padding */
    uint8_t _pad32[32];
} ibf_log_ring_header;
IBF_STATIC_ASSERT_(sizeof(ibf_log_ring_header) == 64, "ibf_log_ring_header: size 64");
IBF_STATIC_ASSERT_(IBF_ALIGNOF_(ibf_log_ring_header) == 8, "ibf_log_ring_header: align 8");
IBF_STATIC_ASSERT_(offsetof(ibf_log_ring_header, write_pos) == 0, "ibf_log_ring_header.write_pos: offset 0");
IBF_STATIC_ASSERT_(offsetof(ibf_log_ring_header, tail_pos) == 8, "ibf_log_ring_header.tail_pos: offset 8");
IBF_STATIC_ASSERT_(offsetof(ibf_log_ring_header, capacity) == 16, "ibf_log_ring_header.capacity: offset 16");
IBF_STATIC_ASSERT_(offsetof(ibf_log_ring_header, _pad20) == 20, "ibf_log_ring_header._pad20: offset 20");
IBF_STATIC_ASSERT_(offsetof(ibf_log_ring_header, entries) == 24, "ibf_log_ring_header.entries: offset 24");
IBF_STATIC_ASSERT_(offsetof(ibf_log_ring_header, _pad32) == 32, "ibf_log_ring_header._pad32: offset 32");

/**
 * A client's log queue: the client writes, the host reads. Full means the entry is dropped and
 * counted
 *
 * Size 64 (0x40), align 8. Shared memory, written by the client.
 */
typedef struct ibf_log_queue_header {
    /**
     * offset 0x0000 (0), size 8: Client: bytes ever written
     *
     * Access: atomic (client).
     */
    IBF_ALIGNAS_(8) uint64_t write_pos;
    /**
     * offset 0x0008 (8), size 8: Client: entries that did not fit
     *
     * Access: atomic (client).
     */
    IBF_ALIGNAS_(8) uint64_t dropped;
    /**
     * offset 0x0010 (16), size 4
     *
     * Access: plain (host).
     */
    uint32_t capacity;
    /** offset 0x0014 (20), size 12, padding */
    uint8_t _pad20[12];
    /**
     * offset 0x0020 (32), size 8: Host: bytes consumed
     *
     * Access: atomic (host).
     */
    IBF_ALIGNAS_(8) uint64_t read_pos;
    /** offset 0x0028 (40), size 24, padding */
    uint8_t _pad40[24];
} ibf_log_queue_header;
IBF_STATIC_ASSERT_(sizeof(ibf_log_queue_header) == 64, "ibf_log_queue_header: size 64");
IBF_STATIC_ASSERT_(IBF_ALIGNOF_(ibf_log_queue_header) == 8, "ibf_log_queue_header: align 8");
IBF_STATIC_ASSERT_(offsetof(ibf_log_queue_header, write_pos) == 0, "ibf_log_queue_header.write_pos: offset 0");
IBF_STATIC_ASSERT_(offsetof(ibf_log_queue_header, dropped) == 8, "ibf_log_queue_header.dropped: offset 8");
IBF_STATIC_ASSERT_(offsetof(ibf_log_queue_header, capacity) == 16, "ibf_log_queue_header.capacity: offset 16");
IBF_STATIC_ASSERT_(offsetof(ibf_log_queue_header, _pad20) == 20, "ibf_log_queue_header._pad20: offset 20");
IBF_STATIC_ASSERT_(offsetof(ibf_log_queue_header, read_pos) == 32, "ibf_log_queue_header.read_pos: offset 32");
IBF_STATIC_ASSERT_(offsetof(ibf_log_queue_header, _pad40) == 40, "ibf_log_queue_header._pad40: offset 40");

/**
 * The start of a client block; the host writes it
 *
 * Size 72 (0x48), align 4. Shared memory, written by the host.
 */
typedef struct ibf_client_block_header {
    /**
     * offset 0x0000 (0), size 4
     *
     * Access: plain (host).
     */
    uint32_t size;
    /**
     * offset 0x0004 (4), size 4
     *
     * Access: plain (host).
     */
    uint32_t region_count;
    /**
     * offset 0x0008 (8), size 64: Indexed by client_region
     *
     * Access: plain (host). Entries in use: region_count.
     */
    ibf_region_entry regions[IBF_MAX_REGIONS];
} ibf_client_block_header;
IBF_STATIC_ASSERT_(sizeof(ibf_client_block_header) == 72, "ibf_client_block_header: size 72");
IBF_STATIC_ASSERT_(IBF_ALIGNOF_(ibf_client_block_header) == 4, "ibf_client_block_header: align 4");
IBF_STATIC_ASSERT_(offsetof(ibf_client_block_header, size) == 0, "ibf_client_block_header.size: offset 0");
IBF_STATIC_ASSERT_(offsetof(ibf_client_block_header, region_count) == 4, "ibf_client_block_header.region_count: offset 4");
IBF_STATIC_ASSERT_(offsetof(ibf_client_block_header, regions) == 8, "ibf_client_block_header.regions: offset 8");

/**
 * One running host in the directory
 *
 * Size 64 (0x40), align 8. Shared memory, written by the host.
 */
typedef struct ibf_directory_entry {
    /**
     * offset 0x0000 (0), size 4
     *
     * Access: cas (host).
     */
    ibf_instance_state state;
    /**
     * offset 0x0004 (4), size 4
     *
     * Access: plain (host).
     */
    uint32_t pid;
    /**
     * offset 0x0008 (8), size 8: The host process's creation time (FILETIME): tells a reused
     * PID apart, and orders instances
     *
     * Access: plain (host).
     */
    IBF_ALIGNAS_(8) uint64_t process_time;
    /**
     * offset 0x0010 (16), size 2
     *
     * Access: plain (host).
     */
    uint16_t abi_major;
    /**
     * offset 0x0012 (18), size 2
     *
     * Access: plain (host).
     */
    uint16_t abi_minor;
    /** offset 0x0014 (20), size 4, padding */
    uint8_t _pad20[4];
    /**
     * offset 0x0018 (24), size 32
     *
     * Access: plain (host).
     */
    char host_version[IBF_VERSION_LEN];
    /** offset 0x0038 (56), size 8, padding */
    uint8_t _pad56[8];
} ibf_directory_entry;
IBF_STATIC_ASSERT_(sizeof(ibf_directory_entry) == 64, "ibf_directory_entry: size 64");
IBF_STATIC_ASSERT_(IBF_ALIGNOF_(ibf_directory_entry) == 8, "ibf_directory_entry: align 8");
IBF_STATIC_ASSERT_(offsetof(ibf_directory_entry, state) == 0, "ibf_directory_entry.state: offset 0");
IBF_STATIC_ASSERT_(offsetof(ibf_directory_entry, pid) == 4, "ibf_directory_entry.pid: offset 4");
IBF_STATIC_ASSERT_(offsetof(ibf_directory_entry, process_time) == 8, "ibf_directory_entry.process_time: offset 8");
IBF_STATIC_ASSERT_(offsetof(ibf_directory_entry, abi_major) == 16, "ibf_directory_entry.abi_major: offset 16");
IBF_STATIC_ASSERT_(offsetof(ibf_directory_entry, abi_minor) == 18, "ibf_directory_entry.abi_minor: offset 18");
IBF_STATIC_ASSERT_(offsetof(ibf_directory_entry, _pad20) == 20, "ibf_directory_entry._pad20: offset 20");
IBF_STATIC_ASSERT_(offsetof(ibf_directory_entry, host_version) == 24, "ibf_directory_entry.host_version: offset 24");
IBF_STATIC_ASSERT_(offsetof(ibf_directory_entry, _pad56) == 56, "ibf_directory_entry._pad56: offset 56");

/**
 * Local\ibf.directory: the hosts running in this logon session
 *
 * Size 1088 (0x440), align 8. Shared memory, written by the host.
 */
typedef struct ibf_directory_header {
    /**
     * offset 0x0000 (0), size 4: directory_magic
     *
     * Access: plain (host). Always IBF_DIRECTORY_MAGIC.
     */
    uint32_t magic;
    /**
     * offset 0x0004 (4), size 4
     *
     * Access: plain (host).
     */
    uint32_t entry_count;
    /**
     * offset 0x0008 (8), size 4
     *
     * Access: plain (host).
     */
    uint32_t entry_size;
    /** offset 0x000c (12), size 52, padding */
    uint8_t _pad12[52];
    /**
     * offset 0x0040 (64), size 1024
     *
     * Access: plain (host). Entries in use: entry_count.
     */
    ibf_directory_entry entries[IBF_MAX_INSTANCES];
} ibf_directory_header;
IBF_STATIC_ASSERT_(sizeof(ibf_directory_header) == 1088, "ibf_directory_header: size 1088");
IBF_STATIC_ASSERT_(IBF_ALIGNOF_(ibf_directory_header) == 8, "ibf_directory_header: align 8");
IBF_STATIC_ASSERT_(offsetof(ibf_directory_header, magic) == 0, "ibf_directory_header.magic: offset 0");
IBF_STATIC_ASSERT_(offsetof(ibf_directory_header, entry_count) == 4, "ibf_directory_header.entry_count: offset 4");
IBF_STATIC_ASSERT_(offsetof(ibf_directory_header, entry_size) == 8, "ibf_directory_header.entry_size: offset 8");
IBF_STATIC_ASSERT_(offsetof(ibf_directory_header, _pad12) == 12, "ibf_directory_header._pad12: offset 12");
IBF_STATIC_ASSERT_(offsetof(ibf_directory_header, entries) == 64, "ibf_directory_header.entries: offset 64");

/**
 * The start of a heatmap's payload; width x height u8 values follow, row by row from the bottom
 * row (ABI 0.5)
 *
 * Size 8 (0x8), align 1. Since ABI 0.5.
 */
typedef struct ibf_heatmap_header {
    /** offset 0x0000 (0), size 1 */
    ibf_heatmap_palette palette;
    /** offset 0x0001 (1), size 1 */
    ibf_heatmap_flags flags;
    /** offset 0x0002 (2), size 6, padding */
    uint8_t _pad2[6];
} ibf_heatmap_header;
IBF_STATIC_ASSERT_(sizeof(ibf_heatmap_header) == 8, "ibf_heatmap_header: size 8");
IBF_STATIC_ASSERT_(IBF_ALIGNOF_(ibf_heatmap_header) == 1, "ibf_heatmap_header: align 1");
IBF_STATIC_ASSERT_(offsetof(ibf_heatmap_header, palette) == 0, "ibf_heatmap_header.palette: offset 0");
IBF_STATIC_ASSERT_(offsetof(ibf_heatmap_header, flags) == 1, "ibf_heatmap_header.flags: offset 1");
IBF_STATIC_ASSERT_(offsetof(ibf_heatmap_header, _pad2) == 2, "ibf_heatmap_header._pad2: offset 2");

/**
 * One drawing (design 8.4). By op, in the command's space: line, arrow: from (a, b) to (c, d),
 * thickness pixels wide. polyline: the payload's points (vec2 each); flags.closed joins the
 * ends. rect, rect_fill: the corners (a, b) and (c, d). circle, circle_fill: centre (a, b),
 * radius c (screen_norm: a fraction of the height). text: the payload's UTF-8 hanging from (a,
 * b), or centred on it (flags.centered); c is the size in pixels, 0 for the overlay's.
 * tile_fill, tile_outline: tile (a, b), c x d tiles (0 counts as 1), whatever the space.
 * heatmap: c x d cells from tile (a, b), the lower-left; the payload is a heatmap_header, then
 * the cells. The colour's alpha is the opacity.
 *
 * Size 36 (0x24), align 4.
 */
typedef struct ibf_draw_cmd {
    /** offset 0x0000 (0), size 1 */
    ibf_draw_op op;
    /** offset 0x0001 (1), size 1 */
    ibf_draw_space space;
    /** offset 0x0002 (2), size 1 */
    ibf_draw_layer layer;
    /** offset 0x0003 (3), size 1 */
    ibf_draw_flags flags;
    /** offset 0x0004 (4), size 4: RGBA, byte order R, G, B, A (ImGui IM_COL32) */
    uint32_t color;
    /** offset 0x0008 (8), size 4: Pixels */
    float thickness;
    /** offset 0x000c (12), size 4 */
    float a;
    /** offset 0x0010 (16), size 4 */
    float b;
    /** offset 0x0014 (20), size 4 */
    float c;
    /** offset 0x0018 (24), size 4 */
    float d;
    /**
     * offset 0x001c (28), size 4: Points, UTF-8 text or heatmap cells in the list's payload
     * area
     */
    uint32_t payload_off;
    /** offset 0x0020 (32), size 2 */
    uint16_t payload_len;
    /** offset 0x0022 (34), size 2, padding */
    uint8_t _pad34[2];
} ibf_draw_cmd;
IBF_STATIC_ASSERT_(sizeof(ibf_draw_cmd) == 36, "ibf_draw_cmd: size 36");
IBF_STATIC_ASSERT_(IBF_ALIGNOF_(ibf_draw_cmd) == 4, "ibf_draw_cmd: align 4");
IBF_STATIC_ASSERT_(offsetof(ibf_draw_cmd, op) == 0, "ibf_draw_cmd.op: offset 0");
IBF_STATIC_ASSERT_(offsetof(ibf_draw_cmd, space) == 1, "ibf_draw_cmd.space: offset 1");
IBF_STATIC_ASSERT_(offsetof(ibf_draw_cmd, layer) == 2, "ibf_draw_cmd.layer: offset 2");
IBF_STATIC_ASSERT_(offsetof(ibf_draw_cmd, flags) == 3, "ibf_draw_cmd.flags: offset 3");
IBF_STATIC_ASSERT_(offsetof(ibf_draw_cmd, color) == 4, "ibf_draw_cmd.color: offset 4");
IBF_STATIC_ASSERT_(offsetof(ibf_draw_cmd, thickness) == 8, "ibf_draw_cmd.thickness: offset 8");
IBF_STATIC_ASSERT_(offsetof(ibf_draw_cmd, a) == 12, "ibf_draw_cmd.a: offset 12");
IBF_STATIC_ASSERT_(offsetof(ibf_draw_cmd, b) == 16, "ibf_draw_cmd.b: offset 16");
IBF_STATIC_ASSERT_(offsetof(ibf_draw_cmd, c) == 20, "ibf_draw_cmd.c: offset 20");
IBF_STATIC_ASSERT_(offsetof(ibf_draw_cmd, d) == 24, "ibf_draw_cmd.d: offset 24");
IBF_STATIC_ASSERT_(offsetof(ibf_draw_cmd, payload_off) == 28, "ibf_draw_cmd.payload_off: offset 28");
IBF_STATIC_ASSERT_(offsetof(ibf_draw_cmd, payload_len) == 32, "ibf_draw_cmd.payload_len: offset 32");
IBF_STATIC_ASSERT_(offsetof(ibf_draw_cmd, _pad34) == 34, "ibf_draw_cmd._pad34: offset 34");

/**
 * 2-D vector in world units (tiles): origin at the board centre, +Y up
 *
 * Size 8 (0x8), align 4. Shared memory, written by the host.
 */
typedef struct ibf_vec2 {
    /**
     * offset 0x0000 (0), size 4
     *
     * Access: plain (host).
     */
    float x;
    /**
     * offset 0x0004 (4), size 4
     *
     * Access: plain (host).
     */
    float y;
} ibf_vec2;
IBF_STATIC_ASSERT_(sizeof(ibf_vec2) == 8, "ibf_vec2: size 8");
IBF_STATIC_ASSERT_(IBF_ALIGNOF_(ibf_vec2) == 4, "ibf_vec2: align 4");
IBF_STATIC_ASSERT_(offsetof(ibf_vec2, x) == 0, "ibf_vec2.x: offset 0");
IBF_STATIC_ASSERT_(offsetof(ibf_vec2, y) == 4, "ibf_vec2.y: offset 4");

/**
 * One virtual pad. Written under a seqlock: seq is odd while the client writes. A record whose
 * seq stays the same for input.timeout_ms reads neutral
 *
 * Size 32 (0x20), align 8. Shared memory, written by the client.
 */
typedef struct ibf_pad_input {
    /**
     * offset 0x0000 (0), size 4
     *
     * Access: atomic (client).
     */
    uint32_t seq;
    /**
     * offset 0x0004 (4), size 4
     *
     * Access: seqlock pad_input (client).
     */
    ibf_pad_input_flags flags;
    /**
     * offset 0x0008 (8), size 8: The tick of the snapshot this input answers; the host counts
     * the lag, and lockstep (M6) waits for it
     *
     * Access: seqlock pad_input (client).
     */
    IBF_ALIGNAS_(8) uint64_t for_tick;
    /**
     * offset 0x0010 (16), size 2: -32768..32767, +Y up
     *
     * Access: seqlock pad_input (client).
     */
    int16_t lx;
    /**
     * offset 0x0012 (18), size 2
     *
     * Access: seqlock pad_input (client).
     */
    int16_t ly;
    /**
     * offset 0x0014 (20), size 2
     *
     * Access: seqlock pad_input (client).
     */
    int16_t rx;
    /**
     * offset 0x0016 (22), size 2
     *
     * Access: seqlock pad_input (client).
     */
    int16_t ry;
    /**
     * offset 0x0018 (24), size 2
     *
     * Access: seqlock pad_input (client).
     */
    ibf_pad_buttons buttons;
    /**
     * offset 0x001a (26), size 1
     *
     * Access: seqlock pad_input (client).
     */
    uint8_t lt;
    /**
     * offset 0x001b (27), size 1
     *
     * Access: seqlock pad_input (client).
     */
    uint8_t rt;
    /** offset 0x001c (28), size 4, padding */
    uint8_t _pad28[4];
} ibf_pad_input;
IBF_STATIC_ASSERT_(sizeof(ibf_pad_input) == 32, "ibf_pad_input: size 32");
IBF_STATIC_ASSERT_(IBF_ALIGNOF_(ibf_pad_input) == 8, "ibf_pad_input: align 8");
IBF_STATIC_ASSERT_(offsetof(ibf_pad_input, seq) == 0, "ibf_pad_input.seq: offset 0");
IBF_STATIC_ASSERT_(offsetof(ibf_pad_input, flags) == 4, "ibf_pad_input.flags: offset 4");
IBF_STATIC_ASSERT_(offsetof(ibf_pad_input, for_tick) == 8, "ibf_pad_input.for_tick: offset 8");
IBF_STATIC_ASSERT_(offsetof(ibf_pad_input, lx) == 16, "ibf_pad_input.lx: offset 16");
IBF_STATIC_ASSERT_(offsetof(ibf_pad_input, ly) == 18, "ibf_pad_input.ly: offset 18");
IBF_STATIC_ASSERT_(offsetof(ibf_pad_input, rx) == 20, "ibf_pad_input.rx: offset 20");
IBF_STATIC_ASSERT_(offsetof(ibf_pad_input, ry) == 22, "ibf_pad_input.ry: offset 22");
IBF_STATIC_ASSERT_(offsetof(ibf_pad_input, buttons) == 24, "ibf_pad_input.buttons: offset 24");
IBF_STATIC_ASSERT_(offsetof(ibf_pad_input, lt) == 26, "ibf_pad_input.lt: offset 26");
IBF_STATIC_ASSERT_(offsetof(ibf_pad_input, rt) == 27, "ibf_pad_input.rt: offset 27");
IBF_STATIC_ASSERT_(offsetof(ibf_pad_input, _pad28) == 28, "ibf_pad_input._pad28: offset 28");

/**
 * One pad as the game last polled it before a tick
 *
 * Size 24 (0x18), align 8.
 */
typedef struct ibf_rec_pad {
    /**
     * offset 0x0000 (0), size 8: The tick a bot's record answered; 0 when no bot answered the
     * poll
     */
    IBF_ALIGNAS_(8) uint64_t for_tick;
    /** offset 0x0008 (8), size 2 */
    int16_t lx;
    /** offset 0x000a (10), size 2 */
    int16_t ly;
    /** offset 0x000c (12), size 2 */
    int16_t rx;
    /** offset 0x000e (14), size 2 */
    int16_t ry;
    /** offset 0x0010 (16), size 2 */
    ibf_pad_buttons buttons;
    /** offset 0x0012 (18), size 1 */
    uint8_t lt;
    /** offset 0x0013 (19), size 1 */
    uint8_t rt;
    /** offset 0x0014 (20), size 1 */
    ibf_rec_pad_source source;
    /** offset 0x0015 (21), size 1: A bot pad's owner (its client row), or no_pad */
    uint8_t owner;
    /** offset 0x0016 (22), size 2, padding */
    uint8_t _pad22[2];
} ibf_rec_pad;
IBF_STATIC_ASSERT_(sizeof(ibf_rec_pad) == 24, "ibf_rec_pad: size 24");
IBF_STATIC_ASSERT_(IBF_ALIGNOF_(ibf_rec_pad) == 8, "ibf_rec_pad: align 8");
IBF_STATIC_ASSERT_(offsetof(ibf_rec_pad, for_tick) == 0, "ibf_rec_pad.for_tick: offset 0");
IBF_STATIC_ASSERT_(offsetof(ibf_rec_pad, lx) == 8, "ibf_rec_pad.lx: offset 8");
IBF_STATIC_ASSERT_(offsetof(ibf_rec_pad, ly) == 10, "ibf_rec_pad.ly: offset 10");
IBF_STATIC_ASSERT_(offsetof(ibf_rec_pad, rx) == 12, "ibf_rec_pad.rx: offset 12");
IBF_STATIC_ASSERT_(offsetof(ibf_rec_pad, ry) == 14, "ibf_rec_pad.ry: offset 14");
IBF_STATIC_ASSERT_(offsetof(ibf_rec_pad, buttons) == 16, "ibf_rec_pad.buttons: offset 16");
IBF_STATIC_ASSERT_(offsetof(ibf_rec_pad, lt) == 18, "ibf_rec_pad.lt: offset 18");
IBF_STATIC_ASSERT_(offsetof(ibf_rec_pad, rt) == 19, "ibf_rec_pad.rt: offset 19");
IBF_STATIC_ASSERT_(offsetof(ibf_rec_pad, source) == 20, "ibf_rec_pad.source: offset 20");
IBF_STATIC_ASSERT_(offsetof(ibf_rec_pad, owner) == 21, "ibf_rec_pad.owner: offset 21");
IBF_STATIC_ASSERT_(offsetof(ibf_rec_pad, _pad22) == 22, "ibf_rec_pad._pad22: offset 22");

/**
 * One tick record; the snapshot and its extras follow it
 *
 * Size 136 (0x88), align 8.
 */
typedef struct ibf_rec_tick_header {
    /** offset 0x0000 (0), size 4: Bytes of the record: this header and data_size */
    uint32_t size;
    /** offset 0x0004 (4), size 4: Bytes of the snapshot and its extras */
    uint32_t data_size;
    /** offset 0x0008 (8), size 1 */
    ibf_rec_record_kind kind;
    /** offset 0x0009 (9), size 7, padding */
    uint8_t _pad9[7];
    /** offset 0x0010 (16), size 8 */
    IBF_ALIGNAS_(8) uint64_t tick;
    /** offset 0x0018 (24), size 8 */
    IBF_ALIGNAS_(8) uint64_t frame;
    /** offset 0x0020 (32), size 8: The host clock when the tick was published */
    IBF_ALIGNAS_(8) uint64_t host_time_ns;
    /** offset 0x0028 (40), size 96: What the game last polled from each pad before this tick */
    ibf_rec_pad pads[IBF_MAX_PLAYERS];
} ibf_rec_tick_header;
IBF_STATIC_ASSERT_(sizeof(ibf_rec_tick_header) == 136, "ibf_rec_tick_header: size 136");
IBF_STATIC_ASSERT_(IBF_ALIGNOF_(ibf_rec_tick_header) == 8, "ibf_rec_tick_header: align 8");
IBF_STATIC_ASSERT_(offsetof(ibf_rec_tick_header, size) == 0, "ibf_rec_tick_header.size: offset 0");
IBF_STATIC_ASSERT_(offsetof(ibf_rec_tick_header, data_size) == 4, "ibf_rec_tick_header.data_size: offset 4");
IBF_STATIC_ASSERT_(offsetof(ibf_rec_tick_header, kind) == 8, "ibf_rec_tick_header.kind: offset 8");
IBF_STATIC_ASSERT_(offsetof(ibf_rec_tick_header, _pad9) == 9, "ibf_rec_tick_header._pad9: offset 9");
IBF_STATIC_ASSERT_(offsetof(ibf_rec_tick_header, tick) == 16, "ibf_rec_tick_header.tick: offset 16");
IBF_STATIC_ASSERT_(offsetof(ibf_rec_tick_header, frame) == 24, "ibf_rec_tick_header.frame: offset 24");
IBF_STATIC_ASSERT_(offsetof(ibf_rec_tick_header, host_time_ns) == 32, "ibf_rec_tick_header.host_time_ns: offset 32");
IBF_STATIC_ASSERT_(offsetof(ibf_rec_tick_header, pads) == 40, "ibf_rec_tick_header.pads: offset 40");

/**
 * The first 512 bytes of a recording
 *
 * Size 512 (0x200), align 8.
 */
typedef struct ibf_rec_file_header {
    /**
     * offset 0x0000 (0), size 4: rec_magic
     *
     * Always IBF_REC_MAGIC.
     */
    uint32_t magic;
    /**
     * offset 0x0004 (4), size 2: rec_format
     *
     * Always IBF_REC_FORMAT.
     */
    uint16_t format;
    /** offset 0x0006 (6), size 2: sizeof(rec_file_header) */
    uint16_t header_size;
    /** offset 0x0008 (8), size 2: The snapshot's ABI */
    uint16_t schema_major;
    /** offset 0x000a (10), size 2 */
    uint16_t schema_minor;
    /** offset 0x000c (12), size 4: sizeof(snapshot) for the host that recorded */
    uint32_t snapshot_size;
    /** offset 0x0010 (16), size 4: rec_chunk_ticks */
    uint32_t chunk_ticks;
    /** offset 0x0014 (20), size 4 */
    uint32_t host_pid;
    /** offset 0x0018 (24), size 8: When recording started */
    IBF_ALIGNAS_(8) int64_t start_unix_ns;
    /** offset 0x0020 (32), size 8: The host clock then */
    IBF_ALIGNAS_(8) uint64_t start_mono_ns;
    /** offset 0x0028 (40), size 16: The pad input each game action mapped to */
    ibf_controls controls;
    /** offset 0x0038 (56), size 1: When recording started */
    ibf_run_mode run_mode;
    /** offset 0x0039 (57), size 1: Bit n: pad n was a bot pad */
    uint8_t bot_pads;
    /** offset 0x003a (58), size 2, padding */
    uint8_t _pad58[2];
    /** offset 0x003c (60), size 4 */
    uint32_t lockstep_timeout_ms;
    /** offset 0x0040 (64), size 32 */
    char host_version[IBF_VERSION_LEN];
    /** offset 0x0060 (96), size 64 */
    char profile_name[64];
    /** offset 0x00a0 (160), size 80: The game executable's SHA-256 in hex */
    char exe_sha256[80];
    /** offset 0x00f0 (240), size 256: Free text: what was recorded */
    char note[256];
    /** offset 0x01f0 (496), size 16, padding */
    uint8_t _pad496[16];
} ibf_rec_file_header;
IBF_STATIC_ASSERT_(sizeof(ibf_rec_file_header) == 512, "ibf_rec_file_header: size 512");
IBF_STATIC_ASSERT_(IBF_ALIGNOF_(ibf_rec_file_header) == 8, "ibf_rec_file_header: align 8");
IBF_STATIC_ASSERT_(offsetof(ibf_rec_file_header, magic) == 0, "ibf_rec_file_header.magic: offset 0");
IBF_STATIC_ASSERT_(offsetof(ibf_rec_file_header, format) == 4, "ibf_rec_file_header.format: offset 4");
IBF_STATIC_ASSERT_(offsetof(ibf_rec_file_header, header_size) == 6, "ibf_rec_file_header.header_size: offset 6");
IBF_STATIC_ASSERT_(offsetof(ibf_rec_file_header, schema_major) == 8, "ibf_rec_file_header.schema_major: offset 8");
IBF_STATIC_ASSERT_(offsetof(ibf_rec_file_header, schema_minor) == 10, "ibf_rec_file_header.schema_minor: offset 10");
IBF_STATIC_ASSERT_(offsetof(ibf_rec_file_header, snapshot_size) == 12, "ibf_rec_file_header.snapshot_size: offset 12");
IBF_STATIC_ASSERT_(offsetof(ibf_rec_file_header, chunk_ticks) == 16, "ibf_rec_file_header.chunk_ticks: offset 16");
IBF_STATIC_ASSERT_(offsetof(ibf_rec_file_header, host_pid) == 20, "ibf_rec_file_header.host_pid: offset 20");
IBF_STATIC_ASSERT_(offsetof(ibf_rec_file_header, start_unix_ns) == 24, "ibf_rec_file_header.start_unix_ns: offset 24");
IBF_STATIC_ASSERT_(offsetof(ibf_rec_file_header, start_mono_ns) == 32, "ibf_rec_file_header.start_mono_ns: offset 32");
IBF_STATIC_ASSERT_(offsetof(ibf_rec_file_header, controls) == 40, "ibf_rec_file_header.controls: offset 40");
IBF_STATIC_ASSERT_(offsetof(ibf_rec_file_header, run_mode) == 56, "ibf_rec_file_header.run_mode: offset 56");
IBF_STATIC_ASSERT_(offsetof(ibf_rec_file_header, bot_pads) == 57, "ibf_rec_file_header.bot_pads: offset 57");
IBF_STATIC_ASSERT_(offsetof(ibf_rec_file_header, _pad58) == 58, "ibf_rec_file_header._pad58: offset 58");
IBF_STATIC_ASSERT_(offsetof(ibf_rec_file_header, lockstep_timeout_ms) == 60, "ibf_rec_file_header.lockstep_timeout_ms: offset 60");
IBF_STATIC_ASSERT_(offsetof(ibf_rec_file_header, host_version) == 64, "ibf_rec_file_header.host_version: offset 64");
IBF_STATIC_ASSERT_(offsetof(ibf_rec_file_header, profile_name) == 96, "ibf_rec_file_header.profile_name: offset 96");
IBF_STATIC_ASSERT_(offsetof(ibf_rec_file_header, exe_sha256) == 160, "ibf_rec_file_header.exe_sha256: offset 160");
IBF_STATIC_ASSERT_(offsetof(ibf_rec_file_header, note) == 240, "ibf_rec_file_header.note: offset 240");
IBF_STATIC_ASSERT_(offsetof(ibf_rec_file_header, _pad496) == 496, "ibf_rec_file_header._pad496: offset 496");

/**
 * One chunk: its zlib stream follows
 *
 * Size 32 (0x20), align 8.
 */
typedef struct ibf_rec_chunk_header {
    /**
     * offset 0x0000 (0), size 4: rec_chunk_magic
     *
     * Always IBF_REC_CHUNK_MAGIC.
     */
    uint32_t magic;
    /** offset 0x0004 (4), size 4: Bytes of the zlib stream */
    uint32_t stored_size;
    /** offset 0x0008 (8), size 4: Bytes of tick records it inflates to */
    uint32_t raw_size;
    /** offset 0x000c (12), size 4 */
    uint32_t tick_count;
    /** offset 0x0010 (16), size 8 */
    IBF_ALIGNAS_(8) uint64_t first_tick;
    /** offset 0x0018 (24), size 8 */
    IBF_ALIGNAS_(8) uint64_t last_tick;
} ibf_rec_chunk_header;
IBF_STATIC_ASSERT_(sizeof(ibf_rec_chunk_header) == 32, "ibf_rec_chunk_header: size 32");
IBF_STATIC_ASSERT_(IBF_ALIGNOF_(ibf_rec_chunk_header) == 8, "ibf_rec_chunk_header: align 8");
IBF_STATIC_ASSERT_(offsetof(ibf_rec_chunk_header, magic) == 0, "ibf_rec_chunk_header.magic: offset 0");
IBF_STATIC_ASSERT_(offsetof(ibf_rec_chunk_header, stored_size) == 4, "ibf_rec_chunk_header.stored_size: offset 4");
IBF_STATIC_ASSERT_(offsetof(ibf_rec_chunk_header, raw_size) == 8, "ibf_rec_chunk_header.raw_size: offset 8");
IBF_STATIC_ASSERT_(offsetof(ibf_rec_chunk_header, tick_count) == 12, "ibf_rec_chunk_header.tick_count: offset 12");
IBF_STATIC_ASSERT_(offsetof(ibf_rec_chunk_header, first_tick) == 16, "ibf_rec_chunk_header.first_tick: offset 16");
IBF_STATIC_ASSERT_(offsetof(ibf_rec_chunk_header, last_tick) == 24, "ibf_rec_chunk_header.last_tick: offset 24");

/**
 * The footer's index of a chunk
 *
 * Size 24 (0x18), align 8.
 */
typedef struct ibf_rec_chunk_entry {
    /** offset 0x0000 (0), size 8: Of its rec_chunk_header, from the file's start */
    IBF_ALIGNAS_(8) uint64_t offset;
    /** offset 0x0008 (8), size 8 */
    IBF_ALIGNAS_(8) uint64_t first_tick;
    /** offset 0x0010 (16), size 8 */
    IBF_ALIGNAS_(8) uint64_t last_tick;
} ibf_rec_chunk_entry;
IBF_STATIC_ASSERT_(sizeof(ibf_rec_chunk_entry) == 24, "ibf_rec_chunk_entry: size 24");
IBF_STATIC_ASSERT_(IBF_ALIGNOF_(ibf_rec_chunk_entry) == 8, "ibf_rec_chunk_entry: align 8");
IBF_STATIC_ASSERT_(offsetof(ibf_rec_chunk_entry, offset) == 0, "ibf_rec_chunk_entry.offset: offset 0");
IBF_STATIC_ASSERT_(offsetof(ibf_rec_chunk_entry, first_tick) == 8, "ibf_rec_chunk_entry.first_tick: offset 8");
IBF_STATIC_ASSERT_(offsetof(ibf_rec_chunk_entry, last_tick) == 16, "ibf_rec_chunk_entry.last_tick: offset 16");

/**
 * A match or round boundary, from the snapshots' events
 *
 * Size 16 (0x10), align 8.
 */
typedef struct ibf_rec_mark {
    /** offset 0x0000 (0), size 8 */
    IBF_ALIGNAS_(8) uint64_t tick;
    /** offset 0x0008 (8), size 2: match_started, round_started, round_ended or match_ended */
    ibf_event_kind kind;
    /** offset 0x000a (10), size 2, padding */
    uint8_t _pad10[2];
    /** offset 0x000c (12), size 4: The event's a: the round number, or the winner */
    int32_t a;
} ibf_rec_mark;
IBF_STATIC_ASSERT_(sizeof(ibf_rec_mark) == 16, "ibf_rec_mark: size 16");
IBF_STATIC_ASSERT_(IBF_ALIGNOF_(ibf_rec_mark) == 8, "ibf_rec_mark: align 8");
IBF_STATIC_ASSERT_(offsetof(ibf_rec_mark, tick) == 0, "ibf_rec_mark.tick: offset 0");
IBF_STATIC_ASSERT_(offsetof(ibf_rec_mark, kind) == 8, "ibf_rec_mark.kind: offset 8");
IBF_STATIC_ASSERT_(offsetof(ibf_rec_mark, _pad10) == 10, "ibf_rec_mark._pad10: offset 10");
IBF_STATIC_ASSERT_(offsetof(ibf_rec_mark, a) == 12, "ibf_rec_mark.a: offset 12");

/**
 * The footer: chunk_count rec_chunk_entry and mark_count rec_mark follow it
 *
 * Size 48 (0x30), align 8.
 */
typedef struct ibf_rec_footer {
    /**
     * offset 0x0000 (0), size 4: rec_footer_magic
     *
     * Always IBF_REC_FOOTER_MAGIC.
     */
    uint32_t magic;
    /** offset 0x0004 (4), size 4 */
    uint32_t chunk_count;
    /** offset 0x0008 (8), size 4 */
    uint32_t mark_count;
    /** offset 0x000c (12), size 4: Ticks the recorder could not keep up with */
    uint32_t dropped;
    /** offset 0x0010 (16), size 8: Tick records in the file */
    IBF_ALIGNAS_(8) uint64_t ticks;
    /** offset 0x0018 (24), size 8 */
    IBF_ALIGNAS_(8) uint64_t first_tick;
    /** offset 0x0020 (32), size 8 */
    IBF_ALIGNAS_(8) uint64_t last_tick;
    /** offset 0x0028 (40), size 8: When recording stopped */
    IBF_ALIGNAS_(8) int64_t end_unix_ns;
} ibf_rec_footer;
IBF_STATIC_ASSERT_(sizeof(ibf_rec_footer) == 48, "ibf_rec_footer: size 48");
IBF_STATIC_ASSERT_(IBF_ALIGNOF_(ibf_rec_footer) == 8, "ibf_rec_footer: align 8");
IBF_STATIC_ASSERT_(offsetof(ibf_rec_footer, magic) == 0, "ibf_rec_footer.magic: offset 0");
IBF_STATIC_ASSERT_(offsetof(ibf_rec_footer, chunk_count) == 4, "ibf_rec_footer.chunk_count: offset 4");
IBF_STATIC_ASSERT_(offsetof(ibf_rec_footer, mark_count) == 8, "ibf_rec_footer.mark_count: offset 8");
IBF_STATIC_ASSERT_(offsetof(ibf_rec_footer, dropped) == 12, "ibf_rec_footer.dropped: offset 12");
IBF_STATIC_ASSERT_(offsetof(ibf_rec_footer, ticks) == 16, "ibf_rec_footer.ticks: offset 16");
IBF_STATIC_ASSERT_(offsetof(ibf_rec_footer, first_tick) == 24, "ibf_rec_footer.first_tick: offset 24");
IBF_STATIC_ASSERT_(offsetof(ibf_rec_footer, last_tick) == 32, "ibf_rec_footer.last_tick: offset 32");
IBF_STATIC_ASSERT_(offsetof(ibf_rec_footer, end_unix_ns) == 40, "ibf_rec_footer.end_unix_ns: offset 40");

/**
 * A recording's last 16 bytes
 *
 * Size 16 (0x10), align 8.
 */
typedef struct ibf_rec_trailer {
    /** offset 0x0000 (0), size 8: Of the rec_footer, from the file's start */
    IBF_ALIGNAS_(8) uint64_t footer_offset;
    /** offset 0x0008 (8), size 4, padding */
    uint8_t _pad8[4];
    /**
     * offset 0x000c (12), size 4: rec_trailer_magic
     *
     * Always IBF_REC_TRAILER_MAGIC.
     */
    uint32_t magic;
} ibf_rec_trailer;
IBF_STATIC_ASSERT_(sizeof(ibf_rec_trailer) == 16, "ibf_rec_trailer: size 16");
IBF_STATIC_ASSERT_(IBF_ALIGNOF_(ibf_rec_trailer) == 8, "ibf_rec_trailer: align 8");
IBF_STATIC_ASSERT_(offsetof(ibf_rec_trailer, footer_offset) == 0, "ibf_rec_trailer.footer_offset: offset 0");
IBF_STATIC_ASSERT_(offsetof(ibf_rec_trailer, _pad8) == 8, "ibf_rec_trailer._pad8: offset 8");
IBF_STATIC_ASSERT_(offsetof(ibf_rec_trailer, magic) == 12, "ibf_rec_trailer.magic: offset 12");

/** Size 48 (0x30), align 8. Shared memory, written by the host. */
typedef struct ibf_snapshot_header {
    /**
     * offset 0x0000 (0), size 4: snapshot_magic
     *
     * Access: plain (host). Always IBF_SNAPSHOT_MAGIC.
     */
    uint32_t magic;
    /**
     * offset 0x0004 (4), size 2
     *
     * Access: plain (host).
     */
    uint16_t schema_major;
    /**
     * offset 0x0006 (6), size 2
     *
     * Access: plain (host).
     */
    uint16_t schema_minor;
    /**
     * offset 0x0008 (8), size 4: Bytes in this snapshot, including extras
     *
     * Access: plain (host).
     */
    uint32_t size;
    /**
     * offset 0x000c (12), size 4
     *
     * Access: plain (host).
     */
    ibf_snapshot_flags flags;
    /**
     * offset 0x0010 (16), size 8: Present calls since start-up
     *
     * Access: plain (host).
     */
    IBF_ALIGNAS_(8) uint64_t frame;
    /**
     * offset 0x0018 (24), size 8: Simulation steps since start-up (equals frame in fallback
     * mode)
     *
     * Access: plain (host).
     */
    IBF_ALIGNAS_(8) uint64_t tick;
    /**
     * offset 0x0020 (32), size 8: Monotonic host clock
     *
     * Access: plain (host).
     */
    IBF_ALIGNAS_(8) uint64_t host_time_ns;
    /**
     * offset 0x0028 (40), size 4: Round time in seconds: counts during play, from 0 at each
     * round start
     *
     * Access: plain (host).
     */
    float game_time;
    /**
     * offset 0x002c (44), size 2
     *
     * Access: plain (host).
     */
    ibf_invalid_reason invalid_reason;
    /**
     * offset 0x002e (46), size 1: Which hook built the snapshot
     *
     * Access: plain (host).
     */
    ibf_tick_source tick_source;
    /** offset 0x002f (47), size 1, padding */
    uint8_t _pad47;
} ibf_snapshot_header;
IBF_STATIC_ASSERT_(sizeof(ibf_snapshot_header) == 48, "ibf_snapshot_header: size 48");
IBF_STATIC_ASSERT_(IBF_ALIGNOF_(ibf_snapshot_header) == 8, "ibf_snapshot_header: align 8");
IBF_STATIC_ASSERT_(offsetof(ibf_snapshot_header, magic) == 0, "ibf_snapshot_header.magic: offset 0");
IBF_STATIC_ASSERT_(offsetof(ibf_snapshot_header, schema_major) == 4, "ibf_snapshot_header.schema_major: offset 4");
IBF_STATIC_ASSERT_(offsetof(ibf_snapshot_header, schema_minor) == 6, "ibf_snapshot_header.schema_minor: offset 6");
IBF_STATIC_ASSERT_(offsetof(ibf_snapshot_header, size) == 8, "ibf_snapshot_header.size: offset 8");
IBF_STATIC_ASSERT_(offsetof(ibf_snapshot_header, flags) == 12, "ibf_snapshot_header.flags: offset 12");
IBF_STATIC_ASSERT_(offsetof(ibf_snapshot_header, frame) == 16, "ibf_snapshot_header.frame: offset 16");
IBF_STATIC_ASSERT_(offsetof(ibf_snapshot_header, tick) == 24, "ibf_snapshot_header.tick: offset 24");
IBF_STATIC_ASSERT_(offsetof(ibf_snapshot_header, host_time_ns) == 32, "ibf_snapshot_header.host_time_ns: offset 32");
IBF_STATIC_ASSERT_(offsetof(ibf_snapshot_header, game_time) == 40, "ibf_snapshot_header.game_time: offset 40");
IBF_STATIC_ASSERT_(offsetof(ibf_snapshot_header, invalid_reason) == 44, "ibf_snapshot_header.invalid_reason: offset 44");
IBF_STATIC_ASSERT_(offsetof(ibf_snapshot_header, tick_source) == 46, "ibf_snapshot_header.tick_source: offset 46");
IBF_STATIC_ASSERT_(offsetof(ibf_snapshot_header, _pad47) == 47, "ibf_snapshot_header._pad47: offset 47");

/** Size 24 (0x18), align 4. Shared memory, written by the host. */
typedef struct ibf_game {
    /**
     * offset 0x0000 (0), size 4: Raw menu ID
     *
     * Access: plain (host).
     */
    int32_t menu_id;
    /**
     * offset 0x0004 (4), size 4
     *
     * Access: plain (host).
     */
    int32_t menu_depth;
    /**
     * offset 0x0008 (8), size 4: Highlighted item; top item is 0
     *
     * Access: plain (host).
     */
    int32_t menu_item;
    /**
     * offset 0x000c (12), size 4: The arcade score (the screen's counts up to it)
     *
     * Access: plain (host).
     */
    int32_t arcade_score;
    /**
     * offset 0x0010 (16), size 2: Lives left (arcade), the ship in play included: the squares
     * on screen are lives - players
     *
     * Access: plain (host).
     */
    int16_t lives;
    /**
     * offset 0x0012 (18), size 1
     *
     * Access: plain (host).
     */
    ibf_phase phase;
    /**
     * offset 0x0013 (19), size 1
     *
     * Access: plain (host).
     */
    uint8_t paused;
    /**
     * offset 0x0014 (20), size 1: The game believes its window has focus
     *
     * Access: plain (host).
     */
    uint8_t focused;
    /**
     * offset 0x0015 (21), size 1
     *
     * Access: plain (host).
     */
    uint8_t player_count;
    /** offset 0x0016 (22), size 2, padding */
    uint8_t _pad22[2];
} ibf_game;
IBF_STATIC_ASSERT_(sizeof(ibf_game) == 24, "ibf_game: size 24");
IBF_STATIC_ASSERT_(IBF_ALIGNOF_(ibf_game) == 4, "ibf_game: align 4");
IBF_STATIC_ASSERT_(offsetof(ibf_game, menu_id) == 0, "ibf_game.menu_id: offset 0");
IBF_STATIC_ASSERT_(offsetof(ibf_game, menu_depth) == 4, "ibf_game.menu_depth: offset 4");
IBF_STATIC_ASSERT_(offsetof(ibf_game, menu_item) == 8, "ibf_game.menu_item: offset 8");
IBF_STATIC_ASSERT_(offsetof(ibf_game, arcade_score) == 12, "ibf_game.arcade_score: offset 12");
IBF_STATIC_ASSERT_(offsetof(ibf_game, lives) == 16, "ibf_game.lives: offset 16");
IBF_STATIC_ASSERT_(offsetof(ibf_game, phase) == 18, "ibf_game.phase: offset 18");
IBF_STATIC_ASSERT_(offsetof(ibf_game, paused) == 19, "ibf_game.paused: offset 19");
IBF_STATIC_ASSERT_(offsetof(ibf_game, focused) == 20, "ibf_game.focused: offset 20");
IBF_STATIC_ASSERT_(offsetof(ibf_game, player_count) == 21, "ibf_game.player_count: offset 21");
IBF_STATIC_ASSERT_(offsetof(ibf_game, _pad22) == 22, "ibf_game._pad22: offset 22");

/** Size 4100 (0x1004), align 2. Shared memory, written by the host. */
typedef struct ibf_board {
    /**
     * offset 0x0000 (0), size 2
     *
     * Access: plain (host).
     */
    uint16_t width;
    /**
     * offset 0x0002 (2), size 2
     *
     * Access: plain (host).
     */
    uint16_t height;
    /**
     * offset 0x0004 (4), size 4096: Row-major, index y * width + x, row 0 at the bottom
     *
     * Access: plain (host).
     */
    ibf_tile tiles[IBF_BOARD_MAX_TILES];
} ibf_board;
IBF_STATIC_ASSERT_(sizeof(ibf_board) == 4100, "ibf_board: size 4100");
IBF_STATIC_ASSERT_(IBF_ALIGNOF_(ibf_board) == 2, "ibf_board: align 2");
IBF_STATIC_ASSERT_(offsetof(ibf_board, width) == 0, "ibf_board.width: offset 0");
IBF_STATIC_ASSERT_(offsetof(ibf_board, height) == 2, "ibf_board.height: offset 2");
IBF_STATIC_ASSERT_(offsetof(ibf_board, tiles) == 4, "ibf_board.tiles: offset 4");

/** Size 64 (0x40), align 4. Shared memory, written by the host. */
typedef struct ibf_ship {
    /**
     * offset 0x0000 (0), size 8
     *
     * Access: plain (host).
     */
    ibf_vec2 pos;
    /**
     * offset 0x0008 (8), size 8: Direction of movement: a unit vector while moving, zero when
     * still (Inversus 1.2.0 keeps no speed)
     *
     * Access: plain (host).
     */
    ibf_vec2 vel;
    /**
     * offset 0x0010 (16), size 8
     *
     * Access: plain (host).
     */
    ibf_vec2 last_shot_pos;
    /**
     * offset 0x0018 (24), size 4
     *
     * Access: plain (host).
     */
    float reload_progress;
    /**
     * offset 0x001c (28), size 4
     *
     * Access: plain (host).
     */
    float reload_time;
    /**
     * offset 0x0020 (32), size 4
     *
     * Access: plain (host).
     */
    float time_alive;
    /**
     * offset 0x0024 (36), size 4: The charge timer: from 0 when a charge starts and when a shot
     * fires, so it counts a held button
     *
     * Access: plain (host).
     */
    float time_since_shot;
    /**
     * offset 0x0028 (40), size 4: Versus: round wins of the ship's team
     *
     * Access: plain (host).
     */
    int32_t score;
    /**
     * offset 0x002c (44), size 4: Already de-obfuscated
     *
     * Access: plain (host).
     */
    int32_t multiplier;
    /**
     * offset 0x0030 (48), size 4: One bit per field the profile marks confirmed
     *
     * Access: plain (host).
     */
    ibf_ship_valid valid;
    /**
     * offset 0x0034 (52), size 2
     *
     * Access: plain (host).
     */
    ibf_ship_flags flags;
    /**
     * offset 0x0036 (54), size 1: Player index 0-3 (Inversus 1.2.0 stores one bit per player),
     * or no_player for an arcade enemy
     *
     * Access: plain (host).
     */
    uint8_t player_id;
    /**
     * offset 0x0037 (55), size 1
     *
     * Access: plain (host).
     */
    ibf_color color;
    /**
     * offset 0x0038 (56), size 1
     *
     * Access: plain (host).
     */
    uint8_t alive;
    /**
     * offset 0x0039 (57), size 1
     *
     * Access: plain (host).
     */
    uint8_t ammo;
    /**
     * offset 0x003a (58), size 1
     *
     * Access: plain (host).
     */
    uint8_t max_ammo;
    /**
     * offset 0x003b (59), size 1: Red shots held
     *
     * Access: plain (host).
     */
    uint8_t fast_ammo;
    /**
     * offset 0x003c (60), size 1
     *
     * Access: plain (host).
     */
    ibf_dir charge_dir;
    /** offset 0x003d (61), size 3, padding */
    uint8_t _pad61[3];
} ibf_ship;
IBF_STATIC_ASSERT_(sizeof(ibf_ship) == 64, "ibf_ship: size 64");
IBF_STATIC_ASSERT_(IBF_ALIGNOF_(ibf_ship) == 4, "ibf_ship: align 4");
IBF_STATIC_ASSERT_(offsetof(ibf_ship, pos) == 0, "ibf_ship.pos: offset 0");
IBF_STATIC_ASSERT_(offsetof(ibf_ship, vel) == 8, "ibf_ship.vel: offset 8");
IBF_STATIC_ASSERT_(offsetof(ibf_ship, last_shot_pos) == 16, "ibf_ship.last_shot_pos: offset 16");
IBF_STATIC_ASSERT_(offsetof(ibf_ship, reload_progress) == 24, "ibf_ship.reload_progress: offset 24");
IBF_STATIC_ASSERT_(offsetof(ibf_ship, reload_time) == 28, "ibf_ship.reload_time: offset 28");
IBF_STATIC_ASSERT_(offsetof(ibf_ship, time_alive) == 32, "ibf_ship.time_alive: offset 32");
IBF_STATIC_ASSERT_(offsetof(ibf_ship, time_since_shot) == 36, "ibf_ship.time_since_shot: offset 36");
IBF_STATIC_ASSERT_(offsetof(ibf_ship, score) == 40, "ibf_ship.score: offset 40");
IBF_STATIC_ASSERT_(offsetof(ibf_ship, multiplier) == 44, "ibf_ship.multiplier: offset 44");
IBF_STATIC_ASSERT_(offsetof(ibf_ship, valid) == 48, "ibf_ship.valid: offset 48");
IBF_STATIC_ASSERT_(offsetof(ibf_ship, flags) == 52, "ibf_ship.flags: offset 52");
IBF_STATIC_ASSERT_(offsetof(ibf_ship, player_id) == 54, "ibf_ship.player_id: offset 54");
IBF_STATIC_ASSERT_(offsetof(ibf_ship, color) == 55, "ibf_ship.color: offset 55");
IBF_STATIC_ASSERT_(offsetof(ibf_ship, alive) == 56, "ibf_ship.alive: offset 56");
IBF_STATIC_ASSERT_(offsetof(ibf_ship, ammo) == 57, "ibf_ship.ammo: offset 57");
IBF_STATIC_ASSERT_(offsetof(ibf_ship, max_ammo) == 58, "ibf_ship.max_ammo: offset 58");
IBF_STATIC_ASSERT_(offsetof(ibf_ship, fast_ammo) == 59, "ibf_ship.fast_ammo: offset 59");
IBF_STATIC_ASSERT_(offsetof(ibf_ship, charge_dir) == 60, "ibf_ship.charge_dir: offset 60");
IBF_STATIC_ASSERT_(offsetof(ibf_ship, _pad61) == 61, "ibf_ship._pad61: offset 61");

/** Size 24 (0x18), align 4. Shared memory, written by the host. */
typedef struct ibf_projectile {
    /**
     * offset 0x0000 (0), size 8
     *
     * Access: plain (host).
     */
    ibf_vec2 pos;
    /**
     * offset 0x0008 (8), size 4
     *
     * Access: plain (host).
     */
    float speed;
    /**
     * offset 0x000c (12), size 4: Seconds since it spawned
     *
     * Access: plain (host).
     */
    float time_alive;
    /**
     * offset 0x0010 (16), size 4: The game's own type value
     *
     * Access: plain (host).
     */
    int32_t kind_raw;
    /**
     * offset 0x0014 (20), size 1
     *
     * Access: plain (host).
     */
    ibf_dir dir;
    /**
     * offset 0x0015 (21), size 1
     *
     * Access: plain (host).
     */
    ibf_projectile_kind kind;
    /**
     * offset 0x0016 (22), size 1: Player ID, or no_player when unknown
     *
     * Access: plain (host).
     */
    uint8_t owner;
    /** offset 0x0017 (23), size 1, padding */
    uint8_t _pad23;
} ibf_projectile;
IBF_STATIC_ASSERT_(sizeof(ibf_projectile) == 24, "ibf_projectile: size 24");
IBF_STATIC_ASSERT_(IBF_ALIGNOF_(ibf_projectile) == 4, "ibf_projectile: align 4");
IBF_STATIC_ASSERT_(offsetof(ibf_projectile, pos) == 0, "ibf_projectile.pos: offset 0");
IBF_STATIC_ASSERT_(offsetof(ibf_projectile, speed) == 8, "ibf_projectile.speed: offset 8");
IBF_STATIC_ASSERT_(offsetof(ibf_projectile, time_alive) == 12, "ibf_projectile.time_alive: offset 12");
IBF_STATIC_ASSERT_(offsetof(ibf_projectile, kind_raw) == 16, "ibf_projectile.kind_raw: offset 16");
IBF_STATIC_ASSERT_(offsetof(ibf_projectile, dir) == 20, "ibf_projectile.dir: offset 20");
IBF_STATIC_ASSERT_(offsetof(ibf_projectile, kind) == 21, "ibf_projectile.kind: offset 21");
IBF_STATIC_ASSERT_(offsetof(ibf_projectile, owner) == 22, "ibf_projectile.owner: offset 22");
IBF_STATIC_ASSERT_(offsetof(ibf_projectile, _pad23) == 23, "ibf_projectile._pad23: offset 23");

/** Size 16 (0x10), align 4. Shared memory, written by the host. */
typedef struct ibf_pickup {
    /**
     * offset 0x0000 (0), size 8
     *
     * Access: plain (host).
     */
    ibf_vec2 pos;
    /**
     * offset 0x0008 (8), size 4
     *
     * Access: plain (host).
     */
    float time_alive;
    /**
     * offset 0x000c (12), size 1
     *
     * Access: plain (host).
     */
    ibf_pickup_kind kind;
    /**
     * offset 0x000d (13), size 1
     *
     * Access: plain (host).
     */
    uint8_t amount;
    /** offset 0x000e (14), size 2, padding */
    uint8_t _pad14[2];
} ibf_pickup;
IBF_STATIC_ASSERT_(sizeof(ibf_pickup) == 16, "ibf_pickup: size 16");
IBF_STATIC_ASSERT_(IBF_ALIGNOF_(ibf_pickup) == 4, "ibf_pickup: align 4");
IBF_STATIC_ASSERT_(offsetof(ibf_pickup, pos) == 0, "ibf_pickup.pos: offset 0");
IBF_STATIC_ASSERT_(offsetof(ibf_pickup, time_alive) == 8, "ibf_pickup.time_alive: offset 8");
IBF_STATIC_ASSERT_(offsetof(ibf_pickup, kind) == 12, "ibf_pickup.kind: offset 12");
IBF_STATIC_ASSERT_(offsetof(ibf_pickup, amount) == 13, "ibf_pickup.amount: offset 13");
IBF_STATIC_ASSERT_(offsetof(ibf_pickup, _pad14) == 14, "ibf_pickup._pad14: offset 14");

/** Size 24 (0x18), align 8. Shared memory, written by the host. */
typedef struct ibf_event {
    /**
     * offset 0x0000 (0), size 8: Tick the event was detected on
     *
     * Access: plain (host).
     */
    IBF_ALIGNAS_(8) uint64_t tick;
    /**
     * offset 0x0008 (8), size 4
     *
     * Access: plain (host).
     */
    int32_t a;
    /**
     * offset 0x000c (12), size 4
     *
     * Access: plain (host).
     */
    int32_t b;
    /**
     * offset 0x0010 (16), size 2
     *
     * Access: plain (host).
     */
    ibf_event_kind kind;
    /**
     * offset 0x0012 (18), size 1: Player ID, or no_player
     *
     * Access: plain (host).
     */
    uint8_t player;
    /** offset 0x0013 (19), size 5, padding */
    uint8_t _pad19[5];
} ibf_event;
IBF_STATIC_ASSERT_(sizeof(ibf_event) == 24, "ibf_event: size 24");
IBF_STATIC_ASSERT_(IBF_ALIGNOF_(ibf_event) == 8, "ibf_event: align 8");
IBF_STATIC_ASSERT_(offsetof(ibf_event, tick) == 0, "ibf_event.tick: offset 0");
IBF_STATIC_ASSERT_(offsetof(ibf_event, a) == 8, "ibf_event.a: offset 8");
IBF_STATIC_ASSERT_(offsetof(ibf_event, b) == 12, "ibf_event.b: offset 12");
IBF_STATIC_ASSERT_(offsetof(ibf_event, kind) == 16, "ibf_event.kind: offset 16");
IBF_STATIC_ASSERT_(offsetof(ibf_event, player) == 18, "ibf_event.player: offset 18");
IBF_STATIC_ASSERT_(offsetof(ibf_event, _pad19) == 19, "ibf_event._pad19: offset 19");

/**
 * The running match and its map (ABI 0.6)
 *
 * Size 20 (0x14), align 4. Since ABI 0.6. Shared memory, written by the host.
 */
typedef struct ibf_match {
    /**
     * offset 0x0000 (0), size 4: The map's zoom: pixels per tile = ceil(round(available pixels
     * x map_scale) / tiles) on the limiting axis
     *
     * Access: plain (host).
     */
    float map_scale;
    /**
     * offset 0x0004 (4), size 4: FNV-1a hash of the focused menu button's name (ResumeButton,
     * RetryButton, ...); 0 when none
     *
     * Access: plain (host).
     */
    uint32_t focus_hash;
    /**
     * offset 0x0008 (8), size 1
     *
     * Access: plain (host).
     */
    ibf_game_type game_type;
    /**
     * offset 0x0009 (9), size 1: 0 tutorial, 1 arcade one player, 2 arcade two players, 3
     * versus 1v1, 4 versus 2v2; 255 none
     *
     * Access: plain (host).
     */
    uint8_t map_set;
    /**
     * offset 0x000a (10), size 1: The map's index in its set (the map select's item); 255 none
     *
     * Access: plain (host).
     */
    uint8_t map_index;
    /**
     * offset 0x000b (11), size 1: 1 when ships and shots cross the board's edges to the other
     * side
     *
     * Access: plain (host).
     */
    uint8_t wrap;
    /**
     * offset 0x000c (12), size 1: Columns a crossing of the top edge moves left by (of the
     * bottom edge, right)
     *
     * Access: plain (host).
     */
    int8_t wrap_shift_x;
    /**
     * offset 0x000d (13), size 1: Rows a crossing of the right edge moves down by (of the left
     * edge, up)
     *
     * Access: plain (host).
     */
    int8_t wrap_shift_y;
    /**
     * offset 0x000e (14), size 1: Versus: round wins that take the match
     *
     * Access: plain (host).
     */
    uint8_t rounds_to_win;
    /**
     * offset 0x000f (15), size 1
     *
     * Access: plain (host).
     */
    ibf_round_state round_state;
    /**
     * offset 0x0010 (16), size 1: The team that won the round once round_state is decided;
     * no_player otherwise
     *
     * Access: plain (host).
     */
    uint8_t round_winner;
    /**
     * offset 0x0011 (17), size 1: Teams in the game: 2 in versus
     *
     * Access: plain (host).
     */
    uint8_t teams;
    /**
     * offset 0x0012 (18), size 1: Entries used in pickup_spawns
     *
     * Access: plain (host).
     */
    uint8_t pickup_spawn_count;
    /** offset 0x0013 (19), size 1, padding */
    uint8_t _pad19;
} ibf_match;
IBF_STATIC_ASSERT_(sizeof(ibf_match) == 20, "ibf_match: size 20");
IBF_STATIC_ASSERT_(IBF_ALIGNOF_(ibf_match) == 4, "ibf_match: align 4");
IBF_STATIC_ASSERT_(offsetof(ibf_match, map_scale) == 0, "ibf_match.map_scale: offset 0");
IBF_STATIC_ASSERT_(offsetof(ibf_match, focus_hash) == 4, "ibf_match.focus_hash: offset 4");
IBF_STATIC_ASSERT_(offsetof(ibf_match, game_type) == 8, "ibf_match.game_type: offset 8");
IBF_STATIC_ASSERT_(offsetof(ibf_match, map_set) == 9, "ibf_match.map_set: offset 9");
IBF_STATIC_ASSERT_(offsetof(ibf_match, map_index) == 10, "ibf_match.map_index: offset 10");
IBF_STATIC_ASSERT_(offsetof(ibf_match, wrap) == 11, "ibf_match.wrap: offset 11");
IBF_STATIC_ASSERT_(offsetof(ibf_match, wrap_shift_x) == 12, "ibf_match.wrap_shift_x: offset 12");
IBF_STATIC_ASSERT_(offsetof(ibf_match, wrap_shift_y) == 13, "ibf_match.wrap_shift_y: offset 13");
IBF_STATIC_ASSERT_(offsetof(ibf_match, rounds_to_win) == 14, "ibf_match.rounds_to_win: offset 14");
IBF_STATIC_ASSERT_(offsetof(ibf_match, round_state) == 15, "ibf_match.round_state: offset 15");
IBF_STATIC_ASSERT_(offsetof(ibf_match, round_winner) == 16, "ibf_match.round_winner: offset 16");
IBF_STATIC_ASSERT_(offsetof(ibf_match, teams) == 17, "ibf_match.teams: offset 17");
IBF_STATIC_ASSERT_(offsetof(ibf_match, pickup_spawn_count) == 18, "ibf_match.pickup_spawn_count: offset 18");
IBF_STATIC_ASSERT_(offsetof(ibf_match, _pad19) == 19, "ibf_match._pad19: offset 19");

/**
 * One of the map's pickup spawn points and its timer (ABI 0.6)
 *
 * Size 16 (0x10), align 4. Since ABI 0.6. Shared memory, written by the host.
 */
typedef struct ibf_pickup_spawn {
    /**
     * offset 0x0000 (0), size 8: The spawn cell's centre
     *
     * Access: plain (host).
     */
    ibf_vec2 pos;
    /**
     * offset 0x0008 (8), size 4: Seconds until it spawns while waiting; 0 otherwise
     *
     * Access: plain (host).
     */
    float time_left;
    /**
     * offset 0x000c (12), size 1
     *
     * Access: plain (host).
     */
    ibf_spawn_state state;
    /** offset 0x000d (13), size 3, padding */
    uint8_t _pad13[3];
} ibf_pickup_spawn;
IBF_STATIC_ASSERT_(sizeof(ibf_pickup_spawn) == 16, "ibf_pickup_spawn: size 16");
IBF_STATIC_ASSERT_(IBF_ALIGNOF_(ibf_pickup_spawn) == 4, "ibf_pickup_spawn: align 4");
IBF_STATIC_ASSERT_(offsetof(ibf_pickup_spawn, pos) == 0, "ibf_pickup_spawn.pos: offset 0");
IBF_STATIC_ASSERT_(offsetof(ibf_pickup_spawn, time_left) == 8, "ibf_pickup_spawn.time_left: offset 8");
IBF_STATIC_ASSERT_(offsetof(ibf_pickup_spawn, state) == 12, "ibf_pickup_spawn.state: offset 12");
IBF_STATIC_ASSERT_(offsetof(ibf_pickup_spawn, _pad13) == 13, "ibf_pickup_spawn._pad13: offset 13");

/**
 * Arcade: where an enemy is about to appear, marked on the board before it does (ABI 0.9)
 *
 * Size 16 (0x10), align 4. Since ABI 0.9. Shared memory, written by the host.
 */
typedef struct ibf_spawn_marker {
    /**
     * offset 0x0000 (0), size 8: The marked cell's centre
     *
     * Access: plain (host).
     */
    ibf_vec2 pos;
    /**
     * offset 0x0008 (8), size 4: Seconds until the enemy appears (the marker shows for 1.5 s)
     *
     * Access: plain (host).
     */
    float time_left;
    /**
     * offset 0x000c (12), size 1
     *
     * Access: plain (host).
     */
    ibf_enemy_kind kind;
    /** offset 0x000d (13), size 3, padding */
    uint8_t _pad13[3];
} ibf_spawn_marker;
IBF_STATIC_ASSERT_(sizeof(ibf_spawn_marker) == 16, "ibf_spawn_marker: size 16");
IBF_STATIC_ASSERT_(IBF_ALIGNOF_(ibf_spawn_marker) == 4, "ibf_spawn_marker: align 4");
IBF_STATIC_ASSERT_(offsetof(ibf_spawn_marker, pos) == 0, "ibf_spawn_marker.pos: offset 0");
IBF_STATIC_ASSERT_(offsetof(ibf_spawn_marker, time_left) == 8, "ibf_spawn_marker.time_left: offset 8");
IBF_STATIC_ASSERT_(offsetof(ibf_spawn_marker, kind) == 12, "ibf_spawn_marker.kind: offset 12");
IBF_STATIC_ASSERT_(offsetof(ibf_spawn_marker, _pad13) == 13, "ibf_spawn_marker._pad13: offset 13");

/**
 * More of each ship, parallel to ships (ABI 0.6)
 *
 * Size 28 (0x1c), align 4. Since ABI 0.6. Shared memory, written by the host.
 */
typedef struct ibf_ship_ext {
    /**
     * offset 0x0000 (0), size 8: Tiles per second
     *
     * Access: plain (host).
     */
    ibf_vec2 velocity;
    /**
     * offset 0x0008 (8), size 4: Seconds of block-eat left (arcade enemies keep it for good)
     *
     * Access: plain (host).
     */
    float block_eat_time;
    /**
     * offset 0x000c (12), size 4: Seconds of x1.5 speed left
     *
     * Access: plain (host).
     */
    float speed_boost_time;
    /**
     * offset 0x0010 (16), size 4: Seconds of shield left
     *
     * Access: plain (host).
     */
    float shield_time;
    /**
     * offset 0x0014 (20), size 2: Points for killing it (arcade enemies)
     *
     * Access: plain (host).
     */
    int16_t points;
    /**
     * offset 0x0016 (22), size 1: 0 or 1: the team; a team walks on the cells of its own index
     * (team 0 is black and walks on white)
     *
     * Access: plain (host).
     */
    uint8_t team;
    /**
     * offset 0x0017 (23), size 1: The direction of a charge started within 0.3 s: a shot coming
     * the other way is absorbed
     *
     * Access: plain (host).
     */
    ibf_dir parry_dir;
    /**
     * offset 0x0018 (24), size 1: 1 once hit, while it explodes
     *
     * Access: plain (host).
     */
    uint8_t dying;
    /** offset 0x0019 (25), size 3, padding */
    uint8_t _pad25[3];
} ibf_ship_ext;
IBF_STATIC_ASSERT_(sizeof(ibf_ship_ext) == 28, "ibf_ship_ext: size 28");
IBF_STATIC_ASSERT_(IBF_ALIGNOF_(ibf_ship_ext) == 4, "ibf_ship_ext: align 4");
IBF_STATIC_ASSERT_(offsetof(ibf_ship_ext, velocity) == 0, "ibf_ship_ext.velocity: offset 0");
IBF_STATIC_ASSERT_(offsetof(ibf_ship_ext, block_eat_time) == 8, "ibf_ship_ext.block_eat_time: offset 8");
IBF_STATIC_ASSERT_(offsetof(ibf_ship_ext, speed_boost_time) == 12, "ibf_ship_ext.speed_boost_time: offset 12");
IBF_STATIC_ASSERT_(offsetof(ibf_ship_ext, shield_time) == 16, "ibf_ship_ext.shield_time: offset 16");
IBF_STATIC_ASSERT_(offsetof(ibf_ship_ext, points) == 20, "ibf_ship_ext.points: offset 20");
IBF_STATIC_ASSERT_(offsetof(ibf_ship_ext, team) == 22, "ibf_ship_ext.team: offset 22");
IBF_STATIC_ASSERT_(offsetof(ibf_ship_ext, parry_dir) == 23, "ibf_ship_ext.parry_dir: offset 23");
IBF_STATIC_ASSERT_(offsetof(ibf_ship_ext, dying) == 24, "ibf_ship_ext.dying: offset 24");
IBF_STATIC_ASSERT_(offsetof(ibf_ship_ext, _pad25) == 25, "ibf_ship_ext._pad25: offset 25");

/**
 * More of each projectile, parallel to projectiles (ABI 0.6)
 *
 * Size 8 (0x8), align 4. Since ABI 0.6. Shared memory, written by the host.
 */
typedef struct ibf_projectile_ext {
    /**
     * offset 0x0000 (0), size 4: Tiles flown since it spawned (a shot dies after 100)
     *
     * Access: plain (host).
     */
    float distance;
    /**
     * offset 0x0004 (4), size 1: The shooter's team: ships of the other team die in its tile
     *
     * Access: plain (host).
     */
    uint8_t team;
    /** offset 0x0005 (5), size 3, padding */
    uint8_t _pad5[3];
} ibf_projectile_ext;
IBF_STATIC_ASSERT_(sizeof(ibf_projectile_ext) == 8, "ibf_projectile_ext: size 8");
IBF_STATIC_ASSERT_(IBF_ALIGNOF_(ibf_projectile_ext) == 4, "ibf_projectile_ext: align 4");
IBF_STATIC_ASSERT_(offsetof(ibf_projectile_ext, distance) == 0, "ibf_projectile_ext.distance: offset 0");
IBF_STATIC_ASSERT_(offsetof(ibf_projectile_ext, team) == 4, "ibf_projectile_ext.team: offset 4");
IBF_STATIC_ASSERT_(offsetof(ibf_projectile_ext, _pad5) == 5, "ibf_projectile_ext._pad5: offset 5");

/**
 * Fixed part of a snapshot. When extras_size > 0, an extras_header follows at extras_offset.
 *
 * Size 12104 (0x2f48), align 8. Extensible: it may grow at its end in a later ABI version, so
 * readers take its size from the data, not from sizeof. Shared memory, written by the host.
 */
typedef struct ibf_snapshot {
    /**
     * offset 0x0000 (0), size 48
     *
     * Access: under its seqlock (host).
     */
    ibf_snapshot_header header;
    /**
     * offset 0x0030 (48), size 24
     *
     * Access: under its seqlock (host).
     */
    ibf_game game;
    /**
     * offset 0x0048 (72), size 8: Events detected since start-up; event i is at events[i %
     * max_events]
     *
     * Access: atomic (host).
     */
    IBF_ALIGNAS_(8) uint64_t event_total;
    /**
     * offset 0x0050 (80), size 1
     *
     * Access: under its seqlock (host).
     */
    uint8_t ship_count;
    /**
     * offset 0x0051 (81), size 1
     *
     * Access: under its seqlock (host).
     */
    uint8_t pickup_count;
    /**
     * offset 0x0052 (82), size 2
     *
     * Access: under its seqlock (host).
     */
    uint16_t projectile_count;
    /**
     * offset 0x0054 (84), size 4: Index into ships per player slot, or no_player
     *
     * Access: under its seqlock (host).
     */
    uint8_t players[IBF_MAX_PLAYERS];
    /**
     * offset 0x0058 (88), size 4: From the start of the snapshot; 0 when there are no extras
     *
     * Access: under its seqlock (host).
     */
    uint32_t extras_offset;
    /**
     * offset 0x005c (92), size 4
     *
     * Access: under its seqlock (host).
     */
    uint32_t extras_size;
    /**
     * offset 0x0060 (96), size 4100
     *
     * Access: under its seqlock (host).
     */
    ibf_board board;
    /**
     * offset 0x1064 (4196), size 1024
     *
     * Access: under its seqlock (host). Entries in use: ship_count.
     */
    ibf_ship ships[IBF_MAX_SHIPS];
    /**
     * offset 0x1464 (5220), size 3072
     *
     * Access: under its seqlock (host). Entries in use: projectile_count.
     */
    ibf_projectile projectiles[IBF_MAX_PROJECTILES];
    /**
     * offset 0x2064 (8292), size 1024
     *
     * Access: under its seqlock (host). Entries in use: pickup_count.
     */
    ibf_pickup pickups[IBF_MAX_PICKUPS];
    /** offset 0x2464 (9316), size 4, padding */
    uint8_t _pad9316[4];
    /**
     * offset 0x2468 (9320), size 768
     *
     * Access: under its seqlock (host).
     */
    ibf_event events[IBF_MAX_EVENTS];
    /**
     * offset 0x2768 (10088), size 20, since ABI 0.6: read it when header.schema_minor >= 6
     *
     * Access: under its seqlock (host).
     */
    ibf_match match;
    /**
     * offset 0x277c (10108), size 256, since ABI 0.6
     *
     * Access: under its seqlock (host). Entries in use: match.pickup_spawn_count.
     */
    ibf_pickup_spawn pickup_spawns[IBF_MAX_PICKUP_SPAWNS];
    /**
     * offset 0x287c (10364), size 448, since ABI 0.6: ships_ext[i] goes with ships[i]
     *
     * Access: under its seqlock (host). Entries in use: ship_count.
     */
    ibf_ship_ext ships_ext[IBF_MAX_SHIPS];
    /**
     * offset 0x2a3c (10812), size 1024, since ABI 0.6: projectiles_ext[i] goes with
     * projectiles[i]
     *
     * Access: under its seqlock (host). Entries in use: projectile_count.
     */
    ibf_projectile_ext projectiles_ext[IBF_MAX_PROJECTILES];
    /** offset 0x2e3c (11836), size 4, padding */
    uint8_t _pad11836[4];
    /**
     * offset 0x2e40 (11840), size 256, since ABI 0.9: read them when header.schema_minor >= 9
     *
     * Access: under its seqlock (host). Entries in use: spawn_marker_count.
     */
    ibf_spawn_marker spawn_markers[IBF_MAX_SPAWN_MARKERS];
    /**
     * offset 0x2f40 (12096), size 1, since ABI 0.9: entries used in spawn_markers
     *
     * Access: under its seqlock (host).
     */
    uint8_t spawn_marker_count;
    /** offset 0x2f41 (12097), size 7, padding */
    uint8_t _pad12097[7];
} ibf_snapshot;
IBF_STATIC_ASSERT_(sizeof(ibf_snapshot) == 12104, "ibf_snapshot: size 12104");
IBF_STATIC_ASSERT_(IBF_ALIGNOF_(ibf_snapshot) == 8, "ibf_snapshot: align 8");
IBF_STATIC_ASSERT_(offsetof(ibf_snapshot, header) == 0, "ibf_snapshot.header: offset 0");
IBF_STATIC_ASSERT_(offsetof(ibf_snapshot, game) == 48, "ibf_snapshot.game: offset 48");
IBF_STATIC_ASSERT_(offsetof(ibf_snapshot, event_total) == 72, "ibf_snapshot.event_total: offset 72");
IBF_STATIC_ASSERT_(offsetof(ibf_snapshot, ship_count) == 80, "ibf_snapshot.ship_count: offset 80");
IBF_STATIC_ASSERT_(offsetof(ibf_snapshot, pickup_count) == 81, "ibf_snapshot.pickup_count: offset 81");
IBF_STATIC_ASSERT_(offsetof(ibf_snapshot, projectile_count) == 82, "ibf_snapshot.projectile_count: offset 82");
IBF_STATIC_ASSERT_(offsetof(ibf_snapshot, players) == 84, "ibf_snapshot.players: offset 84");
IBF_STATIC_ASSERT_(offsetof(ibf_snapshot, extras_offset) == 88, "ibf_snapshot.extras_offset: offset 88");
IBF_STATIC_ASSERT_(offsetof(ibf_snapshot, extras_size) == 92, "ibf_snapshot.extras_size: offset 92");
IBF_STATIC_ASSERT_(offsetof(ibf_snapshot, board) == 96, "ibf_snapshot.board: offset 96");
IBF_STATIC_ASSERT_(offsetof(ibf_snapshot, ships) == 4196, "ibf_snapshot.ships: offset 4196");
IBF_STATIC_ASSERT_(offsetof(ibf_snapshot, projectiles) == 5220, "ibf_snapshot.projectiles: offset 5220");
IBF_STATIC_ASSERT_(offsetof(ibf_snapshot, pickups) == 8292, "ibf_snapshot.pickups: offset 8292");
IBF_STATIC_ASSERT_(offsetof(ibf_snapshot, _pad9316) == 9316, "ibf_snapshot._pad9316: offset 9316");
IBF_STATIC_ASSERT_(offsetof(ibf_snapshot, events) == 9320, "ibf_snapshot.events: offset 9320");
IBF_STATIC_ASSERT_(offsetof(ibf_snapshot, match) == 10088, "ibf_snapshot.match: offset 10088");
IBF_STATIC_ASSERT_(offsetof(ibf_snapshot, pickup_spawns) == 10108, "ibf_snapshot.pickup_spawns: offset 10108");
IBF_STATIC_ASSERT_(offsetof(ibf_snapshot, ships_ext) == 10364, "ibf_snapshot.ships_ext: offset 10364");
IBF_STATIC_ASSERT_(offsetof(ibf_snapshot, projectiles_ext) == 10812, "ibf_snapshot.projectiles_ext: offset 10812");
IBF_STATIC_ASSERT_(offsetof(ibf_snapshot, _pad11836) == 11836, "ibf_snapshot._pad11836: offset 11836");
IBF_STATIC_ASSERT_(offsetof(ibf_snapshot, spawn_markers) == 11840, "ibf_snapshot.spawn_markers: offset 11840");
IBF_STATIC_ASSERT_(offsetof(ibf_snapshot, spawn_marker_count) == 12096, "ibf_snapshot.spawn_marker_count: offset 12096");
IBF_STATIC_ASSERT_(offsetof(ibf_snapshot, _pad12097) == 12097, "ibf_snapshot._pad12097: offset 12097");

/**
 * One custom probe (design section 5.6)
 *
 * Size 36 (0x24), align 4.
 */
typedef struct ibf_extra_entry {
    /** offset 0x0000 (0), size 24 */
    char name[IBF_EXTRA_NAME_LEN];
    /** offset 0x0018 (24), size 4: From the start of the extras blob */
    uint32_t offset;
    /** offset 0x001c (28), size 4: Bytes */
    uint32_t size;
    /** offset 0x0020 (32), size 2 */
    ibf_extra_type type;
    /**
     * offset 0x0022 (34), size 2: Elements: 1 per object, or one per entity for per-entity
     * probes
     */
    uint16_t count;
} ibf_extra_entry;
IBF_STATIC_ASSERT_(sizeof(ibf_extra_entry) == 36, "ibf_extra_entry: size 36");
IBF_STATIC_ASSERT_(IBF_ALIGNOF_(ibf_extra_entry) == 4, "ibf_extra_entry: align 4");
IBF_STATIC_ASSERT_(offsetof(ibf_extra_entry, name) == 0, "ibf_extra_entry.name: offset 0");
IBF_STATIC_ASSERT_(offsetof(ibf_extra_entry, offset) == 24, "ibf_extra_entry.offset: offset 24");
IBF_STATIC_ASSERT_(offsetof(ibf_extra_entry, size) == 28, "ibf_extra_entry.size: offset 28");
IBF_STATIC_ASSERT_(offsetof(ibf_extra_entry, type) == 32, "ibf_extra_entry.type: offset 32");
IBF_STATIC_ASSERT_(offsetof(ibf_extra_entry, count) == 34, "ibf_extra_entry.count: offset 34");

/** Size 2312 (0x908), align 4. */
typedef struct ibf_extras_header {
    /** offset 0x0000 (0), size 2 */
    uint16_t entry_count;
    /** offset 0x0002 (2), size 2, padding */
    uint8_t _pad2[2];
    /** offset 0x0004 (4), size 4 */
    uint32_t blob_size;
    /**
     * offset 0x0008 (8), size 2304
     *
     * Entries in use: entry_count.
     */
    ibf_extra_entry entries[IBF_MAX_EXTRAS];
} ibf_extras_header;
IBF_STATIC_ASSERT_(sizeof(ibf_extras_header) == 2312, "ibf_extras_header: size 2312");
IBF_STATIC_ASSERT_(IBF_ALIGNOF_(ibf_extras_header) == 4, "ibf_extras_header: align 4");
IBF_STATIC_ASSERT_(offsetof(ibf_extras_header, entry_count) == 0, "ibf_extras_header.entry_count: offset 0");
IBF_STATIC_ASSERT_(offsetof(ibf_extras_header, _pad2) == 2, "ibf_extras_header._pad2: offset 2");
IBF_STATIC_ASSERT_(offsetof(ibf_extras_header, blob_size) == 4, "ibf_extras_header.blob_size: offset 4");
IBF_STATIC_ASSERT_(offsetof(ibf_extras_header, entries) == 8, "ibf_extras_header.entries: offset 8");

/*
 * Live access helpers
 *
 * The structs above are plain values, for copies. Memory that another process or thread
 * changes is accessed only through the functions below, which take a pointer to the struct
 * where it lives (a mapping, 8-aligned like every struct here) and use atomics at its fields:
 *
 * - atomic fields: ibf_<struct>_load_<field> (acquire), _store_<field> (release),
 *   _fetch_add_<field> (integers; acquire-release), and for compare-and-swap fields
 *   _compare_exchange_<field> (acquire-release, acquire on failure; *expected takes the value
 *   found, like __atomic_compare_exchange_n) and _exchange_<field> (acquire-release). A seqlock
 *   counter has a load only: it changes through its seqlock's write. A field the protocol
 *   helpers access as part of a wider word (a session row's state and generation, which its
 *   claim swaps as one 64-bit word; a directory row's state, in its (state, pid) word) has a
 *   load only, and that load reads the whole word: it changes through the helpers.
 * - an array claimed as one word (pad_owner): a load of the whole word into an array, a
 *   compare-and-swap of the whole word, and a compare-and-swap of one element through the word.
 *   No element is ever accessed with a narrower atomic.
 * - a session row's plain fields (its client's pid, caps, name): ibf_<row>_load_<field>, one
 *   relaxed atomic load of the width the client's fill stores it with, and for text a copy
 *   into the caller's buffer, NUL-terminated and cut to its size.
 * - seqlocks: ibf_<lock>_read copies what the lock guards into the caller's value and keeps
 *   the copy only if the counter was even and unchanged; it returns IBF_OK, or
 *   IBF_CONTENDED after max_tries tries (a write that stopped half way leaves the counter odd
 *   until the next write stores the whole record).
 *   ibf_<lock>_write is the single writer's side.
 * - rings: the newest slot of a slots ring, the writer's publish, and the events since a count.
 *
 * The guarded bytes are copied with relaxed atomic loads and stores, never memcpy, plain or
 * volatile accesses, chunked by absolute address: an 8-byte word where the address is a
 * multiple of 8 and 8 bytes remain, else 4, 2 or 1 bytes by the same rule. Within C every
 * byte is accessed with one size: an atomic field with its own width or with the wider word
 * it is a lane of, guarded bytes in these chunks (tests/c_access_sizes.rs records every
 * access the accessors and helpers make and checks it). The Rust live layer (abi_runtime)
 * accesses shared memory only as whole 8-byte words (a narrower store is a compare-and-swap
 * of its word), so a C and a Rust peer may access the same bytes with different sizes: C11 leaves such mixed-size races undefined, while x86 and
 * ARM64 keep every naturally aligned access of either size single-copy atomic.
 *
 * Compilers. The GCC/Clang branch (the __atomic builtins) is the one the tests compile and run
 * here: with gcc and clang as C11 and g++ and clang++ as C++17 (tests/c_live.rs), and with
 * gcc's ThreadSanitizer (tests/c_tsan.rs). The MSVC branch (x64 and ARM64: __iso_volatile_load
 * and _store, the _Interlocked intrinsics, _ReadWriteBarrier on x64 and
 * __dmb(_ARM64_BARRIER_ISH) on ARM64 for acquire and release) follows Microsoft's
 * documentation. The tests compile it, not with cl.exe but with clang in MSVC mode for the
 * x64 and ARM64 Windows targets, and check the instructions it becomes (tests/c_msvc.rs); it
 * has not been run. Defining IBF_LIVE_MSVC_INTRINSICS selects it under clang-cl too (which
 * otherwise takes the GCC/Clang branch). Any other compiler is an error.
 */

/** A seqlock read or ring read kept a whole copy. */
#define IBF_OK 0
/** Every try found a write in progress (or torn the copy), or a compare-and-swap loop found
 * the word's other bytes changed before each of IBF_CAS_TRIES tries: give up for now, or try
 * again. */
#define IBF_CONTENDED 1
/** A slots ring has no publication yet. */
#define IBF_EMPTY 2
/** The len given is shorter than the struct and its trailer, or a payload does not fit. */
#define IBF_TOO_SHORT 3
/** Tries of a compare-and-swap loop that keeps the other bytes of its word (a pad's byte, a
 * row's state beside its client's generation) before it gives up with IBF_CONTENDED: an
 * honest peer changes its bytes a few times per message, so 1024 failures in a row mean one
 * that writes the word nonstop. */
#define IBF_CAS_TRIES 1024U
#ifndef IBF_CAS_HOOK
/** Called with the word's address between a loop's load and its compare-and-swap: nothing,
 * unless a test defines it first (to play a peer that writes the word's other bytes). */
#define IBF_CAS_HOOK(word) ((void)0)
#endif
/** Tries a reader makes by default: the first 16 spin, later ones yield the thread first. */
#define IBF_DEFAULT_TRIES 10000U
/** Tries a host gives its read of a record its client writes (a pad, a client's parameter
 * definitions, its stats): a client that died mid-write leaves the counter odd, and a host
 * that serves every row each tick must not wait for it. At most this many copies of the
 * record and 7 spin hints: microseconds, where IBF_DEFAULT_TRIES would yield the thread
 * thousands of times (docs/hosts.md, "A host's cost per tick"). */
#define IBF_HOST_TRIES 8U

#if (defined(__GNUC__) || defined(__clang__)) && !defined(IBF_LIVE_MSVC_INTRINSICS)

/* Words of shared bytes: may_alias, so that a word view of any bytes is no type pun. */
typedef uint8_t __attribute__((__may_alias__)) ibf_live_word8_;
typedef uint16_t __attribute__((__may_alias__)) ibf_live_word16_;
typedef uint32_t __attribute__((__may_alias__)) ibf_live_word32_;
typedef uint64_t __attribute__((__may_alias__)) ibf_live_word64_;

static inline uint8_t ibf_live_load_relaxed_u8_(const void *at) {
    return __atomic_load_n((const ibf_live_word8_ *)at, __ATOMIC_RELAXED);
}
static inline uint8_t ibf_live_load_acquire_u8_(const void *at) {
    return __atomic_load_n((const ibf_live_word8_ *)at, __ATOMIC_ACQUIRE);
}
static inline void ibf_live_store_relaxed_u8_(void *at, uint8_t value) {
    __atomic_store_n((ibf_live_word8_ *)at, value, __ATOMIC_RELAXED);
}
static inline void ibf_live_store_release_u8_(void *at, uint8_t value) {
    __atomic_store_n((ibf_live_word8_ *)at, value, __ATOMIC_RELEASE);
}
static inline bool ibf_live_cas_u8_(void *at, uint8_t *expected, uint8_t desired) {
    return __atomic_compare_exchange_n((ibf_live_word8_ *)at, expected, desired, 0,
                                       __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE);
}
static inline uint8_t ibf_live_fetch_add_u8_(void *at, uint8_t value) {
    return __atomic_fetch_add((ibf_live_word8_ *)at, value, __ATOMIC_ACQ_REL);
}
static inline uint8_t ibf_live_exchange_u8_(void *at, uint8_t value) {
    return __atomic_exchange_n((ibf_live_word8_ *)at, value, __ATOMIC_ACQ_REL);
}

static inline uint16_t ibf_live_load_relaxed_u16_(const void *at) {
    return __atomic_load_n((const ibf_live_word16_ *)at, __ATOMIC_RELAXED);
}
static inline uint16_t ibf_live_load_acquire_u16_(const void *at) {
    return __atomic_load_n((const ibf_live_word16_ *)at, __ATOMIC_ACQUIRE);
}
static inline void ibf_live_store_relaxed_u16_(void *at, uint16_t value) {
    __atomic_store_n((ibf_live_word16_ *)at, value, __ATOMIC_RELAXED);
}
static inline void ibf_live_store_release_u16_(void *at, uint16_t value) {
    __atomic_store_n((ibf_live_word16_ *)at, value, __ATOMIC_RELEASE);
}
static inline bool ibf_live_cas_u16_(void *at, uint16_t *expected, uint16_t desired) {
    return __atomic_compare_exchange_n((ibf_live_word16_ *)at, expected, desired, 0,
                                       __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE);
}
static inline uint16_t ibf_live_fetch_add_u16_(void *at, uint16_t value) {
    return __atomic_fetch_add((ibf_live_word16_ *)at, value, __ATOMIC_ACQ_REL);
}
static inline uint16_t ibf_live_exchange_u16_(void *at, uint16_t value) {
    return __atomic_exchange_n((ibf_live_word16_ *)at, value, __ATOMIC_ACQ_REL);
}

static inline uint32_t ibf_live_load_relaxed_u32_(const void *at) {
    return __atomic_load_n((const ibf_live_word32_ *)at, __ATOMIC_RELAXED);
}
static inline uint32_t ibf_live_load_acquire_u32_(const void *at) {
    return __atomic_load_n((const ibf_live_word32_ *)at, __ATOMIC_ACQUIRE);
}
static inline void ibf_live_store_relaxed_u32_(void *at, uint32_t value) {
    __atomic_store_n((ibf_live_word32_ *)at, value, __ATOMIC_RELAXED);
}
static inline void ibf_live_store_release_u32_(void *at, uint32_t value) {
    __atomic_store_n((ibf_live_word32_ *)at, value, __ATOMIC_RELEASE);
}
static inline bool ibf_live_cas_u32_(void *at, uint32_t *expected, uint32_t desired) {
    return __atomic_compare_exchange_n((ibf_live_word32_ *)at, expected, desired, 0,
                                       __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE);
}
static inline uint32_t ibf_live_fetch_add_u32_(void *at, uint32_t value) {
    return __atomic_fetch_add((ibf_live_word32_ *)at, value, __ATOMIC_ACQ_REL);
}
static inline uint32_t ibf_live_exchange_u32_(void *at, uint32_t value) {
    return __atomic_exchange_n((ibf_live_word32_ *)at, value, __ATOMIC_ACQ_REL);
}

static inline uint64_t ibf_live_load_relaxed_u64_(const void *at) {
    return __atomic_load_n((const ibf_live_word64_ *)at, __ATOMIC_RELAXED);
}
static inline uint64_t ibf_live_load_acquire_u64_(const void *at) {
    return __atomic_load_n((const ibf_live_word64_ *)at, __ATOMIC_ACQUIRE);
}
static inline void ibf_live_store_relaxed_u64_(void *at, uint64_t value) {
    __atomic_store_n((ibf_live_word64_ *)at, value, __ATOMIC_RELAXED);
}
static inline void ibf_live_store_release_u64_(void *at, uint64_t value) {
    __atomic_store_n((ibf_live_word64_ *)at, value, __ATOMIC_RELEASE);
}
static inline bool ibf_live_cas_u64_(void *at, uint64_t *expected, uint64_t desired) {
    return __atomic_compare_exchange_n((ibf_live_word64_ *)at, expected, desired, 0,
                                       __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE);
}
static inline uint64_t ibf_live_fetch_add_u64_(void *at, uint64_t value) {
    return __atomic_fetch_add((ibf_live_word64_ *)at, value, __ATOMIC_ACQ_REL);
}
static inline uint64_t ibf_live_exchange_u64_(void *at, uint64_t value) {
    return __atomic_exchange_n((ibf_live_word64_ *)at, value, __ATOMIC_ACQ_REL);
}

static inline void ibf_live_fence_acquire_(void) {
    __atomic_thread_fence(__ATOMIC_ACQUIRE);
}
static inline void ibf_live_fence_release_(void) {
    __atomic_thread_fence(__ATOMIC_RELEASE);
}
/* A full fence: a store before it and a load after it are never reordered (Dekker). */
static inline void ibf_live_fence_seq_cst_(void) {
    __atomic_thread_fence(__ATOMIC_SEQ_CST);
}
static inline void ibf_live_spin_(void) {
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#elif defined(__aarch64__) || defined(__arm__)
    __asm__ __volatile__("yield");
#endif
}
#ifdef _WIN32
__declspec(dllimport) int __stdcall SwitchToThread(void);
static inline void ibf_live_yield_(void) {
    (void)SwitchToThread();
}
#else
static inline void ibf_live_yield_(void) {
    (void)sched_yield();
}
#endif

#elif defined(_MSC_VER) || defined(IBF_LIVE_MSVC_INTRINSICS)

#if defined(_M_ARM64)
/* ARM64: a plain load or store is relaxed; a full barrier after a load makes it acquire,
 * and before a store makes it release. */
#define IBF_LIVE_BARRIER_() __dmb(_ARM64_BARRIER_ISH)
#define IBF_LIVE_FULL_FENCE_() __dmb(_ARM64_BARRIER_ISH)
#define IBF_LIVE_SPIN_() __yield()
#elif defined(_M_X64) && !defined(_M_ARM64EC)
/* x64: loads are acquire and stores release in hardware; only the compiler must not move
 * accesses across them. */
#define IBF_LIVE_BARRIER_() _ReadWriteBarrier()
/* x64 keeps a store in its store buffer while a later load runs: a full fence is mfence. */
#define IBF_LIVE_FULL_FENCE_() (_ReadWriteBarrier(), _mm_mfence(), _ReadWriteBarrier())
#define IBF_LIVE_SPIN_() _mm_pause()
#else
#error "the live access helpers support MSVC on x64 and ARM64 only"
#endif

typedef uint8_t ibf_live_word8_;
typedef uint16_t ibf_live_word16_;
typedef uint32_t ibf_live_word32_;
typedef uint64_t ibf_live_word64_;

static inline uint8_t ibf_live_load_relaxed_u8_(const void *at) {
    return (uint8_t)__iso_volatile_load8((const volatile char *)at);
}
static inline uint8_t ibf_live_load_acquire_u8_(const void *at) {
    uint8_t value = (uint8_t)__iso_volatile_load8((const volatile char *)at);
    IBF_LIVE_BARRIER_();
    return value;
}
static inline void ibf_live_store_relaxed_u8_(void *at, uint8_t value) {
    __iso_volatile_store8((volatile char *)at, (char)value);
}
static inline void ibf_live_store_release_u8_(void *at, uint8_t value) {
    IBF_LIVE_BARRIER_();
    __iso_volatile_store8((volatile char *)at, (char)value);
}
/* The _Interlocked intrinsics are full barriers: at least acquire-release. */
static inline bool ibf_live_cas_u8_(void *at, uint8_t *expected, uint8_t desired) {
    char found = _InterlockedCompareExchange8((volatile char *)at, (char)desired, (char)*expected);
    bool swapped = (uint8_t)found == *expected;
    *expected = (uint8_t)found;
    return swapped;
}
static inline uint8_t ibf_live_fetch_add_u8_(void *at, uint8_t value) {
    return (uint8_t)_InterlockedExchangeAdd8((volatile char *)at, (char)value);
}
static inline uint8_t ibf_live_exchange_u8_(void *at, uint8_t value) {
    return (uint8_t)_InterlockedExchange8((volatile char *)at, (char)value);
}

static inline uint16_t ibf_live_load_relaxed_u16_(const void *at) {
    return (uint16_t)__iso_volatile_load16((const volatile short *)at);
}
static inline uint16_t ibf_live_load_acquire_u16_(const void *at) {
    uint16_t value = (uint16_t)__iso_volatile_load16((const volatile short *)at);
    IBF_LIVE_BARRIER_();
    return value;
}
static inline void ibf_live_store_relaxed_u16_(void *at, uint16_t value) {
    __iso_volatile_store16((volatile short *)at, (short)value);
}
static inline void ibf_live_store_release_u16_(void *at, uint16_t value) {
    IBF_LIVE_BARRIER_();
    __iso_volatile_store16((volatile short *)at, (short)value);
}
/* The _Interlocked intrinsics are full barriers: at least acquire-release. */
static inline bool ibf_live_cas_u16_(void *at, uint16_t *expected, uint16_t desired) {
    short found = _InterlockedCompareExchange16((volatile short *)at, (short)desired, (short)*expected);
    bool swapped = (uint16_t)found == *expected;
    *expected = (uint16_t)found;
    return swapped;
}
static inline uint16_t ibf_live_fetch_add_u16_(void *at, uint16_t value) {
    return (uint16_t)_InterlockedExchangeAdd16((volatile short *)at, (short)value);
}
static inline uint16_t ibf_live_exchange_u16_(void *at, uint16_t value) {
    return (uint16_t)_InterlockedExchange16((volatile short *)at, (short)value);
}

static inline uint32_t ibf_live_load_relaxed_u32_(const void *at) {
    return (uint32_t)__iso_volatile_load32((const volatile int *)at);
}
static inline uint32_t ibf_live_load_acquire_u32_(const void *at) {
    uint32_t value = (uint32_t)__iso_volatile_load32((const volatile int *)at);
    IBF_LIVE_BARRIER_();
    return value;
}
static inline void ibf_live_store_relaxed_u32_(void *at, uint32_t value) {
    __iso_volatile_store32((volatile int *)at, (int)value);
}
static inline void ibf_live_store_release_u32_(void *at, uint32_t value) {
    IBF_LIVE_BARRIER_();
    __iso_volatile_store32((volatile int *)at, (int)value);
}
/* The _Interlocked intrinsics are full barriers: at least acquire-release. */
static inline bool ibf_live_cas_u32_(void *at, uint32_t *expected, uint32_t desired) {
    long found = _InterlockedCompareExchange((volatile long *)at, (long)desired, (long)*expected);
    bool swapped = (uint32_t)found == *expected;
    *expected = (uint32_t)found;
    return swapped;
}
static inline uint32_t ibf_live_fetch_add_u32_(void *at, uint32_t value) {
    return (uint32_t)_InterlockedExchangeAdd((volatile long *)at, (long)value);
}
static inline uint32_t ibf_live_exchange_u32_(void *at, uint32_t value) {
    return (uint32_t)_InterlockedExchange((volatile long *)at, (long)value);
}

static inline uint64_t ibf_live_load_relaxed_u64_(const void *at) {
    return (uint64_t)__iso_volatile_load64((const volatile long long *)at);
}
static inline uint64_t ibf_live_load_acquire_u64_(const void *at) {
    uint64_t value = (uint64_t)__iso_volatile_load64((const volatile long long *)at);
    IBF_LIVE_BARRIER_();
    return value;
}
static inline void ibf_live_store_relaxed_u64_(void *at, uint64_t value) {
    __iso_volatile_store64((volatile long long *)at, (long long)value);
}
static inline void ibf_live_store_release_u64_(void *at, uint64_t value) {
    IBF_LIVE_BARRIER_();
    __iso_volatile_store64((volatile long long *)at, (long long)value);
}
/* The _Interlocked intrinsics are full barriers: at least acquire-release. */
static inline bool ibf_live_cas_u64_(void *at, uint64_t *expected, uint64_t desired) {
    long long found = _InterlockedCompareExchange64((volatile long long *)at, (long long)desired, (long long)*expected);
    bool swapped = (uint64_t)found == *expected;
    *expected = (uint64_t)found;
    return swapped;
}
static inline uint64_t ibf_live_fetch_add_u64_(void *at, uint64_t value) {
    return (uint64_t)_InterlockedExchangeAdd64((volatile long long *)at, (long long)value);
}
static inline uint64_t ibf_live_exchange_u64_(void *at, uint64_t value) {
    return (uint64_t)_InterlockedExchange64((volatile long long *)at, (long long)value);
}

static inline void ibf_live_fence_acquire_(void) {
    IBF_LIVE_BARRIER_();
}
static inline void ibf_live_fence_release_(void) {
    IBF_LIVE_BARRIER_();
}
static inline void ibf_live_fence_seq_cst_(void) {
    IBF_LIVE_FULL_FENCE_();
}
static inline void ibf_live_spin_(void) {
    IBF_LIVE_SPIN_();
}
__declspec(dllimport) int __stdcall SwitchToThread(void);
static inline void ibf_live_yield_(void) {
    (void)SwitchToThread();
}

#else
#error "the live access helpers need the GCC/Clang __atomic builtins or MSVC's intrinsics"
#endif

/* Waits before try number `tries` (from 1): a spin hint for the first 16, then a yield, so
 * that a writer preempted mid-write gets the core back. As the Rust reader does. */
static inline void ibf_live_back_off_(uint32_t tries) {
    if (tries <= 16U) {
        ibf_live_spin_();
    } else {
        ibf_live_yield_();
    }
}

/* One chunk of a copy's edges at `src` with `left` bytes to go (a 4-, 2- or 1-byte word by
 * the alignment of its address): returns its size. */
static inline size_t ibf_live_read_edge_(const unsigned char *src, unsigned char *dst, size_t left) {
    uintptr_t address = (uintptr_t)src;
    if ((address & 3U) == 0 && left >= 4) {
        uint32_t word = ibf_live_load_relaxed_u32_(src);
        memcpy(dst, &word, 4);
        return 4;
    }
    if ((address & 1U) == 0 && left >= 2) {
        uint16_t word = ibf_live_load_relaxed_u16_(src);
        memcpy(dst, &word, 2);
        return 2;
    }
    *dst = ibf_live_load_relaxed_u8_(src);
    return 1;
}

/* Copies `len` shared bytes at `src` into ordinary memory with relaxed atomic loads: the
 * edges by read_edge_, the 8-aligned middle in 8-byte words. */
static inline void ibf_live_read_bytes_(const void *src, void *dst, size_t len) {
    const unsigned char *from = (const unsigned char *)src;
    unsigned char *to = (unsigned char *)dst;
    size_t done = 0;
    while (len - done >= 8 && ((uintptr_t)(from + done) & 7U) != 0) {
        done += ibf_live_read_edge_(from + done, to + done, len - done);
    }
    for (; len - done >= 8; done += 8) {
        uint64_t word = ibf_live_load_relaxed_u64_(from + done);
        memcpy(to + done, &word, 8);
    }
    while (done < len) {
        done += ibf_live_read_edge_(from + done, to + done, len - done);
    }
}

static inline size_t ibf_live_write_edge_(unsigned char *dst, const unsigned char *src, size_t left) {
    uintptr_t address = (uintptr_t)dst;
    if ((address & 3U) == 0 && left >= 4) {
        uint32_t word;
        memcpy(&word, src, 4);
        ibf_live_store_relaxed_u32_(dst, word);
        return 4;
    }
    if ((address & 1U) == 0 && left >= 2) {
        uint16_t word;
        memcpy(&word, src, 2);
        ibf_live_store_relaxed_u16_(dst, word);
        return 2;
    }
    ibf_live_store_relaxed_u8_(dst, *src);
    return 1;
}

/* Copies `len` bytes of ordinary memory into shared bytes at `dst` with relaxed atomic
 * stores, chunked like read_bytes_. */
static inline void ibf_live_write_bytes_(void *dst, const void *src, size_t len) {
    unsigned char *to = (unsigned char *)dst;
    const unsigned char *from = (const unsigned char *)src;
    size_t done = 0;
    while (len - done >= 8 && ((uintptr_t)(to + done) & 7U) != 0) {
        done += ibf_live_write_edge_(to + done, from + done, len - done);
    }
    for (; len - done >= 8; done += 8) {
        uint64_t word;
        memcpy(&word, from + done, 8);
        ibf_live_store_relaxed_u64_(to + done, word);
    }
    while (done < len) {
        done += ibf_live_write_edge_(to + done, from + done, len - done);
    }
}

/* Stores one field of `len` bytes from ordinary memory at `src` into shared bytes at `dst`:
 * a scalar of `bits` (8, 16, 32 or 64) with one relaxed atomic store of its own width, so that
 * no store covers two fields; any other (bits 0: an array or a struct) by its bytes, chunked as
 * write_bytes_, which stays inside it. */
static inline void ibf_live_write_field_(unsigned char *dst, const unsigned char *src, size_t len, unsigned bits) {
    switch (bits) {
    case 8U: {
        uint8_t v;
        memcpy(&v, src, sizeof v);
        ibf_live_store_relaxed_u8_(dst, v);
        return;
    }
    case 16U: {
        uint16_t v;
        memcpy(&v, src, sizeof v);
        ibf_live_store_relaxed_u16_(dst, v);
        return;
    }
    case 32U: {
        uint32_t v;
        memcpy(&v, src, sizeof v);
        ibf_live_store_relaxed_u32_(dst, v);
        return;
    }
    case 64U: {
        uint64_t v;
        memcpy(&v, src, sizeof v);
        ibf_live_store_relaxed_u64_(dst, v);
        return;
    }
    default:
        ibf_live_write_bytes_(dst, src, len);
    }
}

/* How many bytes a copy of the run-time sized `len` bytes at `at` covers, of the `cap` bytes
 * there: up to the next 8-aligned address, never past `cap`. Every reader and writer of a
 * seqlock's run-time sized bytes (a payload's extras) copies what this covers, so the chunks
 * that cover a byte never depend on the size a publication wrote: a reader lapped by a
 * publication of another size still accesses each byte with the writer's chunk size (the
 * edges of a cover end at an 8-aligned address or at `cap`, the same for every size). */
static inline size_t ibf_live_cover_(const unsigned char *at, size_t len, size_t cap) {
    size_t end;
    if (len == 0) {
        return 0;
    }
    end = len + (size_t)((8U - (((uintptr_t)at + len) & 7U)) & 7U);
    return end < cap ? end : cap;
}

/* The bytes of a cover before its last word: up to the last 8-aligned address at or before
 * at + len (0 when there is none after `at`). Splitting a copy there keeps its chunks. */
static inline size_t ibf_live_cover_split_(const unsigned char *at, size_t len) {
    size_t tail = (size_t)(((uintptr_t)at + len) & 7U);
    return len >= tail ? len - tail : 0;
}

/* Copies `len` run-time sized shared bytes at `src` (of `cap` there, len <= cap) into `dst`
 * (len bytes): the whole cover is loaded, its last word into a scratch word. */
static inline void ibf_live_read_covered_(const unsigned char *src, void *dst, size_t len, size_t cap) {
    unsigned char last[8];
    size_t cover = ibf_live_cover_(src, len, cap);
    size_t split = ibf_live_cover_split_(src, len);
    ibf_live_read_bytes_(src, dst, split);
    ibf_live_read_bytes_(src + split, last, cover - split);
    memcpy((unsigned char *)dst + split, last, len - split);
}

/* Stores `len` run-time sized bytes from `src` at `dst` (of `cap` there, len <= cap), the
 * rest of the cover's last word zero: the same chunks as read_covered_. */
static inline void ibf_live_write_covered_(unsigned char *dst, const void *src, size_t len, size_t cap) {
    unsigned char last[8] = {0};
    size_t cover = ibf_live_cover_(dst, len, cap);
    size_t split = ibf_live_cover_split_(dst, len);
    ibf_live_write_bytes_(dst, src, split);
    memcpy(last, (const unsigned char *)src + split, len - split);
    ibf_live_write_bytes_(dst + split, last, cover - split);
}

/* Every atomic field is one naturally aligned word. */
IBF_STATIC_ASSERT_(offsetof(ibf_client_entry, state) % 4 == 0 && IBF_ALIGNOF_(ibf_client_entry) >= 4 && sizeof(((const ibf_client_entry *)0)->state) == 4, "ibf_client_entry.state: an aligned 4-byte atomic word");
IBF_STATIC_ASSERT_(offsetof(ibf_client_entry, generation) % 4 == 0 && IBF_ALIGNOF_(ibf_client_entry) >= 4 && sizeof(((const ibf_client_entry *)0)->generation) == 4, "ibf_client_entry.generation: an aligned 4-byte atomic word");
IBF_STATIC_ASSERT_(offsetof(ibf_client_entry, heartbeat_ns) % 8 == 0 && IBF_ALIGNOF_(ibf_client_entry) >= 8 && sizeof(((const ibf_client_entry *)0)->heartbeat_ns) == 8, "ibf_client_entry.heartbeat_ns: an aligned 8-byte atomic word");
IBF_STATIC_ASSERT_(offsetof(ibf_client_entry, waiting) % 4 == 0 && IBF_ALIGNOF_(ibf_client_entry) >= 4 && sizeof(((const ibf_client_entry *)0)->waiting) == 4, "ibf_client_entry.waiting: an aligned 4-byte atomic word");
IBF_STATIC_ASSERT_(offsetof(ibf_bridge_header, host_generation) % 4 == 0 && IBF_ALIGNOF_(ibf_bridge_header) >= 4 && sizeof(((const ibf_bridge_header *)0)->host_generation) == 4, "ibf_bridge_header.host_generation: an aligned 4-byte atomic word");
IBF_STATIC_ASSERT_(offsetof(ibf_bridge_header, host_state) % 4 == 0 && IBF_ALIGNOF_(ibf_bridge_header) >= 4 && sizeof(((const ibf_bridge_header *)0)->host_state) == 4, "ibf_bridge_header.host_state: an aligned 4-byte atomic word");
IBF_STATIC_ASSERT_(offsetof(ibf_bridge_header, pad_owner) % 4 == 0 && IBF_ALIGNOF_(ibf_bridge_header) >= 4 && sizeof(((const ibf_bridge_header *)0)->pad_owner) == 4, "ibf_bridge_header.pad_owner: an aligned 4-byte atomic word");
IBF_STATIC_ASSERT_(offsetof(ibf_bridge_header, snapshot_seq) % 8 == 0 && IBF_ALIGNOF_(ibf_bridge_header) >= 8 && sizeof(((const ibf_bridge_header *)0)->snapshot_seq) == 8, "ibf_bridge_header.snapshot_seq: an aligned 8-byte atomic word");
IBF_STATIC_ASSERT_(offsetof(ibf_bridge_header, run_mode) % 1 == 0 && IBF_ALIGNOF_(ibf_bridge_header) >= 1 && sizeof(((const ibf_bridge_header *)0)->run_mode) == 1, "ibf_bridge_header.run_mode: an aligned 1-byte atomic word");
IBF_STATIC_ASSERT_(offsetof(ibf_bridge_header, sim_state) % 1 == 0 && IBF_ALIGNOF_(ibf_bridge_header) >= 1 && sizeof(((const ibf_bridge_header *)0)->sim_state) == 1, "ibf_bridge_header.sim_state: an aligned 1-byte atomic word");
IBF_STATIC_ASSERT_(offsetof(ibf_draw_header, state) % 4 == 0 && IBF_ALIGNOF_(ibf_draw_header) >= 4 && sizeof(((const ibf_draw_header *)0)->state) == 4, "ibf_draw_header.state: an aligned 4-byte atomic word");
IBF_STATIC_ASSERT_(offsetof(ibf_draw_header, published) % 4 == 0 && IBF_ALIGNOF_(ibf_draw_header) >= 4 && sizeof(((const ibf_draw_header *)0)->published) == 4, "ibf_draw_header.published: an aligned 4-byte atomic word");
IBF_STATIC_ASSERT_(offsetof(ibf_params_header, defs_seq) % 4 == 0 && IBF_ALIGNOF_(ibf_params_header) >= 4 && sizeof(((const ibf_params_header *)0)->defs_seq) == 4, "ibf_params_header.defs_seq: an aligned 4-byte atomic word");
IBF_STATIC_ASSERT_(offsetof(ibf_params_header, values_seq) % 4 == 0 && IBF_ALIGNOF_(ibf_params_header) >= 4 && sizeof(((const ibf_params_header *)0)->values_seq) == 4, "ibf_params_header.values_seq: an aligned 4-byte atomic word");
IBF_STATIC_ASSERT_(offsetof(ibf_params_header, changes) % 4 == 0 && IBF_ALIGNOF_(ibf_params_header) >= 4 && sizeof(((const ibf_params_header *)0)->changes) == 4, "ibf_params_header.changes: an aligned 4-byte atomic word");
IBF_STATIC_ASSERT_(offsetof(ibf_stats_header, seq) % 4 == 0 && IBF_ALIGNOF_(ibf_stats_header) >= 4 && sizeof(((const ibf_stats_header *)0)->seq) == 4, "ibf_stats_header.seq: an aligned 4-byte atomic word");
IBF_STATIC_ASSERT_(offsetof(ibf_stats_header, ticks) % 8 == 0 && IBF_ALIGNOF_(ibf_stats_header) >= 8 && sizeof(((const ibf_stats_header *)0)->ticks) == 8, "ibf_stats_header.ticks: an aligned 8-byte atomic word");
IBF_STATIC_ASSERT_(offsetof(ibf_stats_header, skipped) % 8 == 0 && IBF_ALIGNOF_(ibf_stats_header) >= 8 && sizeof(((const ibf_stats_header *)0)->skipped) == 8, "ibf_stats_header.skipped: an aligned 8-byte atomic word");
IBF_STATIC_ASSERT_(offsetof(ibf_mailbox_header, request_seq) % 4 == 0 && IBF_ALIGNOF_(ibf_mailbox_header) >= 4 && sizeof(((const ibf_mailbox_header *)0)->request_seq) == 4, "ibf_mailbox_header.request_seq: an aligned 4-byte atomic word");
IBF_STATIC_ASSERT_(offsetof(ibf_mailbox_header, response_seq) % 4 == 0 && IBF_ALIGNOF_(ibf_mailbox_header) >= 4 && sizeof(((const ibf_mailbox_header *)0)->response_seq) == 4, "ibf_mailbox_header.response_seq: an aligned 4-byte atomic word");
IBF_STATIC_ASSERT_(offsetof(ibf_ring_slot_header, seq) % 4 == 0 && IBF_ALIGNOF_(ibf_ring_slot_header) >= 4 && sizeof(((const ibf_ring_slot_header *)0)->seq) == 4, "ibf_ring_slot_header.seq: an aligned 4-byte atomic word");
IBF_STATIC_ASSERT_(offsetof(ibf_log_ring_header, write_pos) % 8 == 0 && IBF_ALIGNOF_(ibf_log_ring_header) >= 8 && sizeof(((const ibf_log_ring_header *)0)->write_pos) == 8, "ibf_log_ring_header.write_pos: an aligned 8-byte atomic word");
IBF_STATIC_ASSERT_(offsetof(ibf_log_ring_header, tail_pos) % 8 == 0 && IBF_ALIGNOF_(ibf_log_ring_header) >= 8 && sizeof(((const ibf_log_ring_header *)0)->tail_pos) == 8, "ibf_log_ring_header.tail_pos: an aligned 8-byte atomic word");
IBF_STATIC_ASSERT_(offsetof(ibf_log_ring_header, entries) % 8 == 0 && IBF_ALIGNOF_(ibf_log_ring_header) >= 8 && sizeof(((const ibf_log_ring_header *)0)->entries) == 8, "ibf_log_ring_header.entries: an aligned 8-byte atomic word");
IBF_STATIC_ASSERT_(offsetof(ibf_log_queue_header, write_pos) % 8 == 0 && IBF_ALIGNOF_(ibf_log_queue_header) >= 8 && sizeof(((const ibf_log_queue_header *)0)->write_pos) == 8, "ibf_log_queue_header.write_pos: an aligned 8-byte atomic word");
IBF_STATIC_ASSERT_(offsetof(ibf_log_queue_header, dropped) % 8 == 0 && IBF_ALIGNOF_(ibf_log_queue_header) >= 8 && sizeof(((const ibf_log_queue_header *)0)->dropped) == 8, "ibf_log_queue_header.dropped: an aligned 8-byte atomic word");
IBF_STATIC_ASSERT_(offsetof(ibf_log_queue_header, read_pos) % 8 == 0 && IBF_ALIGNOF_(ibf_log_queue_header) >= 8 && sizeof(((const ibf_log_queue_header *)0)->read_pos) == 8, "ibf_log_queue_header.read_pos: an aligned 8-byte atomic word");
IBF_STATIC_ASSERT_(offsetof(ibf_directory_entry, state) % 4 == 0 && IBF_ALIGNOF_(ibf_directory_entry) >= 4 && sizeof(((const ibf_directory_entry *)0)->state) == 4, "ibf_directory_entry.state: an aligned 4-byte atomic word");
IBF_STATIC_ASSERT_(offsetof(ibf_pad_input, seq) % 4 == 0 && IBF_ALIGNOF_(ibf_pad_input) >= 4 && sizeof(((const ibf_pad_input *)0)->seq) == 4, "ibf_pad_input.seq: an aligned 4-byte atomic word");
IBF_STATIC_ASSERT_(offsetof(ibf_snapshot, event_total) % 8 == 0 && IBF_ALIGNOF_(ibf_snapshot) >= 8 && sizeof(((const ibf_snapshot *)0)->event_total) == 8, "ibf_snapshot.event_total: an aligned 8-byte atomic word");

/* Atomic fields */

/**
 * `client_entry.state`, written by the host and client.
 *
 * `client_entry.state` (`client_state`, 32 bits) is claimed by compare-and-swap. Its values:
 * `free` (0), `claimed` (1), `active` (2), `closing` (3).
 *
 * Claimants (the host and client):
 *   1. Claim: compare-and-swap `client_entry.state` from the value that marks it free to the
 *      one that marks it taken (acquire-release; acquire on failure). Only the thread whose
 *      swap succeeds owns it; a failed swap returns the value found.
 *   2. The owner fills in what the claim covers with relaxed atomic stores, then publishes it
 *      with a release store (the field's next value, or another field readers poll).
 *   3. Release: store the free value into `client_entry.state` (release).
 */
/**
 * Loads `state` (acquire) as the protocol's helpers access it: as part of the
 * 64-bit word at offset 0 of the struct, whose bits it takes out. It has no store,
 * add or swap of its own size: it changes through the helpers.
 */
static inline ibf_client_state ibf_client_entry_load_state(const ibf_client_entry *shared) {
    uint64_t word = ibf_live_load_acquire_u64_((const unsigned char *)(const void *)shared + 0);
    return (ibf_client_state)(word >> 0);
}

/**
 * `client_entry.generation`, written by the client. Bumped by each claim: a client that no
 * longer finds its own generation was disconnected
 */
/**
 * Loads `generation` (acquire) as the protocol's helpers access it: as part of the
 * 64-bit word at offset 0 of the struct, whose bits it takes out. It has no store,
 * add or swap of its own size: it changes through the helpers.
 */
static inline uint32_t ibf_client_entry_load_generation(const ibf_client_entry *shared) {
    uint64_t word = ibf_live_load_acquire_u64_((const unsigned char *)(const void *)shared + 0);
    return (uint32_t)(word >> 32);
}

/**
 * `client_entry.heartbeat_ns`, written by the client. The client's own clock in ns (a client
 * cannot read the host's): it writes it at least every 100 ms; the host never compares it with
 * its clock, it watches it change, and a row whose state, generation and heartbeat stay
 * unchanged for 1 s is hung
 */
static inline uint64_t ibf_client_entry_load_heartbeat_ns(const ibf_client_entry *shared) {
    return (uint64_t)ibf_live_load_acquire_u64_(&shared->heartbeat_ns);
}
static inline void ibf_client_entry_store_heartbeat_ns(ibf_client_entry *shared, uint64_t value) {
    ibf_live_store_release_u64_(&shared->heartbeat_ns, (uint64_t)value);
}
/** Adds `value` (wrapping) and returns the old value. */
static inline uint64_t ibf_client_entry_fetch_add_heartbeat_ns(ibf_client_entry *shared, uint64_t value) {
    return (uint64_t)ibf_live_fetch_add_u64_(&shared->heartbeat_ns, (uint64_t)value);
}

/**
 * `client_entry.waiting`, written by the client. 1 while the client sleeps on its tick event:
 * the host sets the event only then
 */
static inline uint32_t ibf_client_entry_load_waiting(const ibf_client_entry *shared) {
    return (uint32_t)ibf_live_load_acquire_u32_(&shared->waiting);
}
static inline void ibf_client_entry_store_waiting(ibf_client_entry *shared, uint32_t value) {
    ibf_live_store_release_u32_(&shared->waiting, (uint32_t)value);
}
/** Adds `value` (wrapping) and returns the old value. */
static inline uint32_t ibf_client_entry_fetch_add_waiting(ibf_client_entry *shared, uint32_t value) {
    return (uint32_t)ibf_live_fetch_add_u32_(&shared->waiting, (uint32_t)value);
}

/**
 * `bridge_header.host_generation`, written by the host. Changes when the host reloads; the old
 * host's clients find their rows freed and connect again
 */
static inline uint32_t ibf_bridge_header_load_host_generation(const ibf_bridge_header *shared) {
    return (uint32_t)ibf_live_load_acquire_u32_(&shared->host_generation);
}
static inline void ibf_bridge_header_store_host_generation(ibf_bridge_header *shared, uint32_t value) {
    ibf_live_store_release_u32_(&shared->host_generation, (uint32_t)value);
}
/** Adds `value` (wrapping) and returns the old value. */
static inline uint32_t ibf_bridge_header_fetch_add_host_generation(ibf_bridge_header *shared, uint32_t value) {
    return (uint32_t)ibf_live_fetch_add_u32_(&shared->host_generation, (uint32_t)value);
}

/** `bridge_header.host_state`, written by the host. */
static inline ibf_host_state ibf_bridge_header_load_host_state(const ibf_bridge_header *shared) {
    return (ibf_host_state)ibf_live_load_acquire_u32_(&shared->host_state);
}
static inline void ibf_bridge_header_store_host_state(ibf_bridge_header *shared, ibf_host_state value) {
    ibf_live_store_release_u32_(&shared->host_state, (uint32_t)value);
}

/**
 * `bridge_header.snapshot_seq`, written by the host. Snapshots published; the newest is in slot
 * (snapshot_seq - 1) % ring_slots. On its own cache line
 */
static inline uint64_t ibf_bridge_header_load_snapshot_seq(const ibf_bridge_header *shared) {
    return (uint64_t)ibf_live_load_acquire_u64_(&shared->snapshot_seq);
}
static inline void ibf_bridge_header_store_snapshot_seq(ibf_bridge_header *shared, uint64_t value) {
    ibf_live_store_release_u64_(&shared->snapshot_seq, (uint64_t)value);
}
/** Adds `value` (wrapping) and returns the old value. */
static inline uint64_t ibf_bridge_header_fetch_add_snapshot_seq(ibf_bridge_header *shared, uint64_t value) {
    return (uint64_t)ibf_live_fetch_add_u64_(&shared->snapshot_seq, (uint64_t)value);
}

/**
 * `bridge_header.run_mode`, written by the host. ABI 0.7: in lockstep the host waits for each
 * tick's answers, and a client sets the input event after writing its pad
 */
static inline ibf_run_mode ibf_bridge_header_load_run_mode(const ibf_bridge_header *shared) {
    return (ibf_run_mode)ibf_live_load_acquire_u8_(&shared->run_mode);
}
static inline void ibf_bridge_header_store_run_mode(ibf_bridge_header *shared, ibf_run_mode value) {
    ibf_live_store_release_u8_(&shared->run_mode, (uint8_t)value);
}

/** `bridge_header.sim_state`, written by the host. ABI 0.7: running, or paused by sim.pause */
static inline ibf_sim_state ibf_bridge_header_load_sim_state(const ibf_bridge_header *shared) {
    return (ibf_sim_state)ibf_live_load_acquire_u8_(&shared->sim_state);
}
static inline void ibf_bridge_header_store_sim_state(ibf_bridge_header *shared, ibf_sim_state value) {
    ibf_live_store_release_u8_(&shared->sim_state, (uint8_t)value);
}

/**
 * `draw_header.state`, written by the host and client. Bits 0-1: the shared list's index; bit
 * 2: it is fresh (a list waits for the host). Swapped whole by both sides
 */
static inline uint32_t ibf_draw_header_load_state(const ibf_draw_header *shared) {
    return (uint32_t)ibf_live_load_acquire_u32_(&shared->state);
}
static inline void ibf_draw_header_store_state(ibf_draw_header *shared, uint32_t value) {
    ibf_live_store_release_u32_(&shared->state, (uint32_t)value);
}
/** Adds `value` (wrapping) and returns the old value. */
static inline uint32_t ibf_draw_header_fetch_add_state(ibf_draw_header *shared, uint32_t value) {
    return (uint32_t)ibf_live_fetch_add_u32_(&shared->state, (uint32_t)value);
}
/**
 * Stores `desired` if the field holds *expected: true; else false, and *expected = the value
 * found (acquire-release; acquire on failure).
 */
static inline bool ibf_draw_header_compare_exchange_state(ibf_draw_header *shared, uint32_t *expected, uint32_t desired) {
    uint32_t want = (uint32_t)*expected;
    bool swapped = ibf_live_cas_u32_(&shared->state, &want, (uint32_t)desired);
    *expected = (uint32_t)want;
    return swapped;
}
/** Stores `value` and returns the old value. */
static inline uint32_t ibf_draw_header_exchange_state(ibf_draw_header *shared, uint32_t value) {
    return (uint32_t)ibf_live_exchange_u32_(&shared->state, (uint32_t)value);
}

/** `draw_header.published`, written by the client. Client: lists published */
static inline uint32_t ibf_draw_header_load_published(const ibf_draw_header *shared) {
    return (uint32_t)ibf_live_load_acquire_u32_(&shared->published);
}
static inline void ibf_draw_header_store_published(ibf_draw_header *shared, uint32_t value) {
    ibf_live_store_release_u32_(&shared->published, (uint32_t)value);
}
/** Adds `value` (wrapping) and returns the old value. */
static inline uint32_t ibf_draw_header_fetch_add_published(ibf_draw_header *shared, uint32_t value) {
    return (uint32_t)ibf_live_fetch_add_u32_(&shared->published, (uint32_t)value);
}

/**
 * `params_header.defs_seq`, written by the client. Client: odd while it writes the definitions
 */
static inline uint32_t ibf_params_header_load_defs_seq(const ibf_params_header *shared) {
    return (uint32_t)ibf_live_load_acquire_u32_(&shared->defs_seq);
}

/** `params_header.values_seq`, written by the host. Host: odd while it writes the values */
static inline uint32_t ibf_params_header_load_values_seq(const ibf_params_header *shared) {
    return (uint32_t)ibf_live_load_acquire_u32_(&shared->values_seq);
}

/** `params_header.changes`, written by the host. Host: bumped with every change of a value */
static inline uint32_t ibf_params_header_load_changes(const ibf_params_header *shared) {
    return (uint32_t)ibf_live_load_acquire_u32_(&shared->changes);
}
static inline void ibf_params_header_store_changes(ibf_params_header *shared, uint32_t value) {
    ibf_live_store_release_u32_(&shared->changes, (uint32_t)value);
}
/** Adds `value` (wrapping) and returns the old value. */
static inline uint32_t ibf_params_header_fetch_add_changes(ibf_params_header *shared, uint32_t value) {
    return (uint32_t)ibf_live_fetch_add_u32_(&shared->changes, (uint32_t)value);
}

/** `stats_header.seq`, written by the client. Client: odd while it writes the stats */
static inline uint32_t ibf_stats_header_load_seq(const ibf_stats_header *shared) {
    return (uint32_t)ibf_live_load_acquire_u32_(&shared->seq);
}

/** `stats_header.ticks`, written by the client. Client: snapshots it waited for and got */
static inline uint64_t ibf_stats_header_load_ticks(const ibf_stats_header *shared) {
    return (uint64_t)ibf_live_load_acquire_u64_(&shared->ticks);
}
static inline void ibf_stats_header_store_ticks(ibf_stats_header *shared, uint64_t value) {
    ibf_live_store_release_u64_(&shared->ticks, (uint64_t)value);
}
/** Adds `value` (wrapping) and returns the old value. */
static inline uint64_t ibf_stats_header_fetch_add_ticks(ibf_stats_header *shared, uint64_t value) {
    return (uint64_t)ibf_live_fetch_add_u64_(&shared->ticks, (uint64_t)value);
}

/**
 * `stats_header.skipped`, written by the client. Client: publications it missed (latest wins)
 */
static inline uint64_t ibf_stats_header_load_skipped(const ibf_stats_header *shared) {
    return (uint64_t)ibf_live_load_acquire_u64_(&shared->skipped);
}
static inline void ibf_stats_header_store_skipped(ibf_stats_header *shared, uint64_t value) {
    ibf_live_store_release_u64_(&shared->skipped, (uint64_t)value);
}
/** Adds `value` (wrapping) and returns the old value. */
static inline uint64_t ibf_stats_header_fetch_add_skipped(ibf_stats_header *shared, uint64_t value) {
    return (uint64_t)ibf_live_fetch_add_u64_(&shared->skipped, (uint64_t)value);
}

/**
 * `mailbox_header.request_seq`, written by the client. Client: bumped (release) after each
 * request's text and length are written
 */
static inline uint32_t ibf_mailbox_header_load_request_seq(const ibf_mailbox_header *shared) {
    return (uint32_t)ibf_live_load_acquire_u32_(&shared->request_seq);
}
static inline void ibf_mailbox_header_store_request_seq(ibf_mailbox_header *shared, uint32_t value) {
    ibf_live_store_release_u32_(&shared->request_seq, (uint32_t)value);
}
/** Adds `value` (wrapping) and returns the old value. */
static inline uint32_t ibf_mailbox_header_fetch_add_request_seq(ibf_mailbox_header *shared, uint32_t value) {
    return (uint32_t)ibf_live_fetch_add_u32_(&shared->request_seq, (uint32_t)value);
}

/**
 * `mailbox_header.response_seq`, written by the host. Host: the request_seq answered, stored
 * (release) after the rest
 */
static inline uint32_t ibf_mailbox_header_load_response_seq(const ibf_mailbox_header *shared) {
    return (uint32_t)ibf_live_load_acquire_u32_(&shared->response_seq);
}
static inline void ibf_mailbox_header_store_response_seq(ibf_mailbox_header *shared, uint32_t value) {
    ibf_live_store_release_u32_(&shared->response_seq, (uint32_t)value);
}
/** Adds `value` (wrapping) and returns the old value. */
static inline uint32_t ibf_mailbox_header_fetch_add_response_seq(ibf_mailbox_header *shared, uint32_t value) {
    return (uint32_t)ibf_live_fetch_add_u32_(&shared->response_seq, (uint32_t)value);
}

/** `ring_slot_header.seq`, written by the host. Odd while the host writes the slot */
static inline uint32_t ibf_ring_slot_header_load_seq(const ibf_ring_slot_header *shared) {
    return (uint32_t)ibf_live_load_acquire_u32_(&shared->seq);
}

/**
 * `log_ring_header.write_pos`, written by the host. Bytes ever written; the next entry starts
 * at write_pos % capacity
 */
static inline uint64_t ibf_log_ring_header_load_write_pos(const ibf_log_ring_header *shared) {
    return (uint64_t)ibf_live_load_acquire_u64_(&shared->write_pos);
}
static inline void ibf_log_ring_header_store_write_pos(ibf_log_ring_header *shared, uint64_t value) {
    ibf_live_store_release_u64_(&shared->write_pos, (uint64_t)value);
}
/** Adds `value` (wrapping) and returns the old value. */
static inline uint64_t ibf_log_ring_header_fetch_add_write_pos(ibf_log_ring_header *shared, uint64_t value) {
    return (uint64_t)ibf_live_fetch_add_u64_(&shared->write_pos, (uint64_t)value);
}

/**
 * `log_ring_header.tail_pos`, written by the host. The oldest whole entry; a reader behind it
 * was lapped
 */
static inline uint64_t ibf_log_ring_header_load_tail_pos(const ibf_log_ring_header *shared) {
    return (uint64_t)ibf_live_load_acquire_u64_(&shared->tail_pos);
}
static inline void ibf_log_ring_header_store_tail_pos(ibf_log_ring_header *shared, uint64_t value) {
    ibf_live_store_release_u64_(&shared->tail_pos, (uint64_t)value);
}
/** Adds `value` (wrapping) and returns the old value. */
static inline uint64_t ibf_log_ring_header_fetch_add_tail_pos(ibf_log_ring_header *shared, uint64_t value) {
    return (uint64_t)ibf_live_fetch_add_u64_(&shared->tail_pos, (uint64_t)value);
}

/** `log_ring_header.entries`, written by the host. Entries written */
static inline uint64_t ibf_log_ring_header_load_entries(const ibf_log_ring_header *shared) {
    return (uint64_t)ibf_live_load_acquire_u64_(&shared->entries);
}
static inline void ibf_log_ring_header_store_entries(ibf_log_ring_header *shared, uint64_t value) {
    ibf_live_store_release_u64_(&shared->entries, (uint64_t)value);
}
/** Adds `value` (wrapping) and returns the old value. */
static inline uint64_t ibf_log_ring_header_fetch_add_entries(ibf_log_ring_header *shared, uint64_t value) {
    return (uint64_t)ibf_live_fetch_add_u64_(&shared->entries, (uint64_t)value);
}

/** `log_queue_header.write_pos`, written by the client. Client: bytes ever written */
static inline uint64_t ibf_log_queue_header_load_write_pos(const ibf_log_queue_header *shared) {
    return (uint64_t)ibf_live_load_acquire_u64_(&shared->write_pos);
}
static inline void ibf_log_queue_header_store_write_pos(ibf_log_queue_header *shared, uint64_t value) {
    ibf_live_store_release_u64_(&shared->write_pos, (uint64_t)value);
}
/** Adds `value` (wrapping) and returns the old value. */
static inline uint64_t ibf_log_queue_header_fetch_add_write_pos(ibf_log_queue_header *shared, uint64_t value) {
    return (uint64_t)ibf_live_fetch_add_u64_(&shared->write_pos, (uint64_t)value);
}

/** `log_queue_header.dropped`, written by the client. Client: entries that did not fit */
static inline uint64_t ibf_log_queue_header_load_dropped(const ibf_log_queue_header *shared) {
    return (uint64_t)ibf_live_load_acquire_u64_(&shared->dropped);
}
static inline void ibf_log_queue_header_store_dropped(ibf_log_queue_header *shared, uint64_t value) {
    ibf_live_store_release_u64_(&shared->dropped, (uint64_t)value);
}
/** Adds `value` (wrapping) and returns the old value. */
static inline uint64_t ibf_log_queue_header_fetch_add_dropped(ibf_log_queue_header *shared, uint64_t value) {
    return (uint64_t)ibf_live_fetch_add_u64_(&shared->dropped, (uint64_t)value);
}

/** `log_queue_header.read_pos`, written by the host. Host: bytes consumed */
static inline uint64_t ibf_log_queue_header_load_read_pos(const ibf_log_queue_header *shared) {
    return (uint64_t)ibf_live_load_acquire_u64_(&shared->read_pos);
}
static inline void ibf_log_queue_header_store_read_pos(ibf_log_queue_header *shared, uint64_t value) {
    ibf_live_store_release_u64_(&shared->read_pos, (uint64_t)value);
}
/** Adds `value` (wrapping) and returns the old value. */
static inline uint64_t ibf_log_queue_header_fetch_add_read_pos(ibf_log_queue_header *shared, uint64_t value) {
    return (uint64_t)ibf_live_fetch_add_u64_(&shared->read_pos, (uint64_t)value);
}

/**
 * `directory_entry.state`, written by the host.
 *
 * `directory_entry.state` (`instance_state`, 32 bits) is claimed by compare-and-swap. Its
 * values: `free` (0), `claimed` (1), `live` (2).
 *
 * Claimants (the host):
 *   1. Claim: compare-and-swap `directory_entry.state` from the value that marks it free to the
 *      one that marks it taken (acquire-release; acquire on failure). Only the thread whose
 *      swap succeeds owns it; a failed swap returns the value found.
 *   2. The owner fills in what the claim covers with relaxed atomic stores, then publishes it
 *      with a release store (the field's next value, or another field readers poll).
 *   3. Release: store the free value into `directory_entry.state` (release).
 */
/**
 * Loads `state` (acquire) as the protocol's helpers access it: as part of the
 * 64-bit word at offset 0 of the struct, whose bits it takes out. It has no store,
 * add or swap of its own size: it changes through the helpers.
 */
static inline ibf_instance_state ibf_directory_entry_load_state(const ibf_directory_entry *shared) {
    uint64_t word = ibf_live_load_acquire_u64_((const unsigned char *)(const void *)shared + 0);
    return (ibf_instance_state)(word >> 0);
}

/** `pad_input.seq`, written by the client. */
static inline uint32_t ibf_pad_input_load_seq(const ibf_pad_input *shared) {
    return (uint32_t)ibf_live_load_acquire_u32_(&shared->seq);
}

/* A session row's plain fields, loaded as the client's fill stores them */

/** `client_entry.pid`, written by the client. */
/**
 * Loads `pid` with one relaxed atomic load of its width, the width the client's fill
 * stores it with. Load the row's state (acquire) first: it orders this load after the claim
 * that published the field.
 */
static inline uint32_t ibf_client_entry_load_pid(const ibf_client_entry *shared) {
    return (uint32_t)ibf_live_load_relaxed_u32_(&shared->pid);
}

/** `client_entry.caps`, written by the host and client. */
/**
 * Loads `caps` with one relaxed atomic load of its width, the width the client's fill
 * stores it with. Load the row's state (acquire) first: it orders this load after the claim
 * that published the field.
 */
static inline ibf_client_caps ibf_client_entry_load_caps(const ibf_client_entry *shared) {
    return (ibf_client_caps)ibf_live_load_relaxed_u32_(&shared->caps);
}

/** `client_entry.connected_ns`, written by the client. Host clock at the claim */
/**
 * Loads `connected_ns` with one relaxed atomic load of its width, the width the client's fill
 * stores it with. Load the row's state (acquire) first: it orders this load after the claim
 * that published the field.
 */
static inline uint64_t ibf_client_entry_load_connected_ns(const ibf_client_entry *shared) {
    return (uint64_t)ibf_live_load_relaxed_u64_(&shared->connected_ns);
}

/**
 * `client_entry.pad`, written by the client. The virtual pad this client bound, or no_pad; the
 * host goes by pad_owner
 */
/**
 * Loads `pad` with one relaxed atomic load of its width, the width the client's fill
 * stores it with. Load the row's state (acquire) first: it orders this load after the claim
 * that published the field.
 */
static inline uint8_t ibf_client_entry_load_pad(const ibf_client_entry *shared) {
    return (uint8_t)ibf_live_load_relaxed_u8_(&shared->pad);
}

/** `client_entry.name`, written by the client. */
/**
 * Copies `name` (text, 32 bytes) into `out`: its bytes up to the first NUL, at most
 * `cap` - 1 of them, then a NUL; returns how many it copied before the NUL. The field is
 * loaded whole first, with relaxed atomic loads in the chunks the client's fill stores it
 * in, never past its 32 bytes; `cap` 0 writes nothing. Load the row's state (acquire)
 * first: it orders this load after the claim that published the field.
 */
static inline size_t ibf_client_entry_load_name(const ibf_client_entry *shared, char *out, size_t cap) {
    char copy[32];
    size_t n = 0;
    ibf_live_read_bytes_(&shared->name, copy, sizeof copy);
    if (cap == 0) {
        return 0;
    }
    while (n < sizeof copy && n + 1 < cap && copy[n] != '\0') {
        out[n] = copy[n];
        n++;
    }
    out[n] = '\0';
    return n;
}

/* Arrays claimed as one word */

/**
 * `bridge_header.pad_owner`, written by the host and client. Per pad: the client row that owns
 * it, no_pad for a free bot pad, or pad_not_bot. Clients bind by compare-and-swap of the four
 * bytes as one u32
 *
 * The 4 `u8` of `bridge_header.pad_owner` are one 32-bit word, claimed by compare-and-swap of
 * the whole word.
 *
 * Claimants (the host and client):
 *   1. Read: load the word (acquire) and take element `k` out of it (element `k` is at byte
 *      offset `k * 1`, little-endian). Never load one element with a narrower atomic.
 *   2. Change element `k` from `old` to `new`: load the word (acquire); if element `k` is not
 *      `old`, the claim fails; otherwise compare-and-swap the word with element `k` replaced
 *      (acquire-release), and on failure retry from the load (another element may have changed
 *      meanwhile).
 */
static inline void ibf_bridge_header_load_pad_owner(const ibf_bridge_header *shared, uint8_t out[IBF_MAX_PLAYERS]) {
    uint32_t word = ibf_live_load_acquire_u32_(shared->pad_owner);
    memcpy(out, &word, 4);
}
/**
 * Compare-and-swap of the whole word: true if it held `expected` (and now holds `desired`);
 * else false, and `expected` = the elements found.
 */
static inline bool ibf_bridge_header_compare_exchange_pad_owner(ibf_bridge_header *shared, uint8_t expected[IBF_MAX_PLAYERS], const uint8_t desired[IBF_MAX_PLAYERS]) {
    uint32_t want;
    uint32_t next;
    bool swapped;
    memcpy(&want, expected, 4);
    memcpy(&next, desired, 4);
    swapped = ibf_live_cas_u32_(shared->pad_owner, &want, next);
    memcpy(expected, &want, 4);
    return swapped;
}
/**
 * Sets element `element` from *expected to `desired` by compare-and-swap of the whole word,
 * retrying while only other elements change, at most IBF_CAS_TRIES times: true; else
 * false, and *expected = the element found. An element past 4 is false, *expected
 * untouched; so is a word whose other elements changed before every try (contended: the
 * element still equals *expected, which no refusal leaves).
 */
static inline bool ibf_bridge_header_compare_exchange_pad_owner_at(ibf_bridge_header *shared, size_t element, uint8_t *expected, uint8_t desired) {
    uint32_t word;
    uint32_t tries;
    if (element >= 4U) {
        return false;
    }
    word = ibf_live_load_acquire_u32_(shared->pad_owner);
    for (tries = 0; tries < IBF_CAS_TRIES; tries++) {
        uint8_t found;
        uint32_t next = word;
        memcpy(&found, (const unsigned char *)&word + element * 1U, 1);
        if (found != *expected) {
            *expected = found;
            return false;
        }
        memcpy((unsigned char *)&next + element * 1U, &desired, 1);
        IBF_CAS_HOOK(shared->pad_owner);
        if (ibf_live_cas_u32_(shared->pad_owner, &word, next)) {
            return true;
        }
    }
    return false;
}

/*
 * Seqlock `ring_slot`. The 32-bit counter `ring_slot_header.seq` guards `size`, `publish_seq`,
 * `tick`, `publish_ns` and `payload` (snapshot) of `ring_slot_header`: odd while the host
 * writes.
 * A snapshot ring slot: the host makes seq odd, writes the slot's header and payload, then
 * makes it even; a client copies them and keeps the copy only if seq was even and unchanged
 *
 * Writer (the host; one at a time):
 *   1. Check everything that can fail (sizes, values) before the counter is touched.
 *   2. Load `ring_slot_header.seq` (relaxed): `s`. If `s` is even, store `s + 1` (relaxed); if
 *      it is odd, a write stopped half way (this writer's own, or one that died: there is one
 *      writer), and this write goes on from `s`.
 *   3. Fence (release): no store below is seen before the odd counter.
 *   4. Store `size`, `publish_seq`, `tick`, `publish_ns` and `payload` (snapshot) with relaxed
 *      atomic stores, in the ranges readers copy.
 *   5. Store `ring_slot_header.seq` = the odd value + 1 (release): even again, and the bytes
 *      are published. A write that stops before this step (an error, a panic, a crash) leaves
 *      the counter odd, never even over half a record: readers see a write in progress and give
 *      up with an error after their tries, until the next write stores the whole record.
 *
 * Reader (the client):
 *   1. Load `ring_slot_header.seq` (acquire): `s1`. If it is odd, a write is in progress: back
 *      off and start over.
 *   2. Copy `size`, `publish_seq`, `tick`, `publish_ns` and `payload` (snapshot) with relaxed
 *      atomic loads (never plain or volatile reads).
 *   3. Fence (acquire), then load `ring_slot_header.seq` (relaxed): `s2`.
 *   4. If `s1 == s2`, the copy is whole. Otherwise discard it and start over; give up with an
 *      error after a bounded number of tries.
 */

/** What seqlock ring_slot guards, as one consistent copy: ordinary memory, never shared. */
typedef struct ibf_ring_slot_copy {
    /** `ring_slot_header.size`. */
    uint32_t size;
    /** `ring_slot_header.publish_seq`. */
    uint64_t publish_seq;
    /** `ring_slot_header.tick`. */
    uint64_t tick;
    /** `ring_slot_header.publish_ns`. */
    uint64_t publish_ns;
    /**
     * The trailer part `payload` (snapshot): as much of it as the producer wrote, the rest
     * zero.
     */
    ibf_snapshot payload;
    /**
     * Bytes of `payload` past its type's size in the shared memory (a newer producer's tail, or
     * extras): a read copies them into the caller's buffer when they fit, and a write stores
     * this many from the caller's buffer.
     */
    size_t payload_extra_len;
} ibf_ring_slot_copy;

/* One copy of the guarded bytes, torn or not: the counter decides. */
static inline void ibf_ring_slot_copy_once_(const unsigned char *base, ibf_ring_slot_copy *out, size_t len, void *extra, size_t extra_cap) {
    size_t size;
    size_t room;
    size_t whole;
    size_t head;
    ibf_live_read_bytes_(base + 4, &out->size, 4);
    ibf_live_read_bytes_(base + 8, &out->publish_seq, 8);
    ibf_live_read_bytes_(base + 16, &out->tick, 8);
    ibf_live_read_bytes_(base + 24, &out->publish_ns, 8);
    size = (size_t)out->size;
    room = len - 64;
    if (size > room) {
        size = room;
    }
    /* The payload's type is copied whole whatever `size` says (its chunks never depend on a
     * size another publication may have written), then cut to `size`: the bytes past it are
     * zero in the copy. */
    whole = room < 12104 ? room : 12104;
    ibf_live_read_bytes_(base + 64, &out->payload, whole);
    head = size < whole ? size : whole;
    memset((unsigned char *)(void *)&out->payload + head, 0, 12104 - head);
    out->payload_extra_len = size - head;
    if (extra != NULL && size - head <= extra_cap) {
        ibf_live_read_covered_(base + 12168, extra, size - head, room - whole);
    }
}

/* One try of a read: true if the copy ran inside one stable period of the counter. */
static inline bool ibf_ring_slot_try_read_(const unsigned char *base, ibf_ring_slot_copy *out, size_t len, void *extra, size_t extra_cap) {
    uint32_t s1 = ibf_live_load_acquire_u32_(base + 0);
    if ((s1 & 1U) != 0) {
        return false;
    }
    ibf_ring_slot_copy_once_(base, out, len, extra, extra_cap);
    /* Orders the copy's loads before the re-check: if the copy saw a store of a later write,
     * this load sees at least the odd counter that write began with. */
    ibf_live_fence_acquire_();
    if (ibf_live_load_relaxed_u32_(base + 0) != s1) {
        return false;
    }
    return true;
}

/**
 * Reads what seqlock ring_slot guards into *out, at most max_tries tries (IBF_DEFAULT_TRIES
 * is a good number): IBF_OK, or IBF_CONTENDED when every try found a write in progress
 * (then *out holds a torn copy: use none of it).
 * `len` is how many bytes from the struct's start are mapped: at least 64, else
 * IBF_TOO_SHORT.
 * The bytes past the payload's type go into `extra` (may be NULL) when they fit its
 * extra_cap bytes; out->payload_extra_len says how many there are.
 * *retries (may be NULL) is the tries that failed first.
 */
static inline int ibf_ring_slot_read(const ibf_ring_slot_header *shared, size_t len, ibf_ring_slot_copy *out, void *extra, size_t extra_cap, uint32_t max_tries, uint32_t *retries) {
    const unsigned char *base = (const unsigned char *)(const void *)shared;
    uint32_t tries;
    if (len < 64) {
        return IBF_TOO_SHORT;
    }
    for (tries = 0; tries < max_tries; tries++) {
        if (tries > 0) {
            ibf_live_back_off_(tries);
        }
        if (ibf_ring_slot_try_read_(base, out, len, extra, extra_cap)) {
            if (retries != NULL) {
                *retries = tries;
            }
            return IBF_OK;
        }
    }
    if (retries != NULL) {
        *retries = max_tries;
    }
    return IBF_CONTENDED;
}

/**
 * Writes *value under seqlock ring_slot: makes the counter odd, stores the bytes, makes it
 * even (release). One writer at a time.
 * The payload's size field becomes its type's size plus value->payload_extra_len, the
 * bytes stored from `extra` after it.
 * IBF_TOO_SHORT, and nothing written, when it does not fit `len` bytes.
 */
static inline int ibf_ring_slot_write(ibf_ring_slot_header *shared, size_t len, const ibf_ring_slot_copy *value, const void *extra) {
    unsigned char *base = (unsigned char *)(void *)shared;
    uint32_t s;
    if (len < 64 || len - 64 < 12104 || value->payload_extra_len > len - 64 - 12104
        || value->payload_extra_len > (uint64_t)UINT32_MAX - 12104) {
        return IBF_TOO_SHORT;
    }
    s = ibf_live_load_relaxed_u32_(base + 0);
    if ((s & 1U) == 0) {
        s += 1U;
    }
    ibf_live_store_relaxed_u32_(base + 0, s);
    /* Orders the odd counter before every store below. */
    ibf_live_fence_release_();
    ibf_live_store_relaxed_u32_(base + 4, (uint32_t)(12104U + value->payload_extra_len));
    ibf_live_write_bytes_(base + 8, &value->publish_seq, 8);
    ibf_live_write_bytes_(base + 16, &value->tick, 8);
    ibf_live_write_bytes_(base + 24, &value->publish_ns, 8);
    ibf_live_write_bytes_(base + 64, &value->payload, 12104);
    if (value->payload_extra_len > 0) {
        ibf_live_write_covered_(base + 12168, extra, value->payload_extra_len, len - 12168);
    }
    ibf_live_store_release_u32_(base + 0, (uint32_t)(s + 1U));
    return IBF_OK;
}

/*
 * Seqlock `pad_input`. The 32-bit counter `pad_input.seq` guards `flags`, `for_tick`, `lx`,
 * `ly`, `rx`, `ry`, `buttons`, `lt` and `rt` of `pad_input`: odd while the client writes.
 * A virtual pad: seq is odd while the client writes the record
 *
 * Writer (the client; one at a time):
 *   1. Check everything that can fail (sizes, values) before the counter is touched.
 *   2. Load `pad_input.seq` (relaxed): `s`. If `s` is even, store `s + 1` (relaxed); if it is
 *      odd, a write stopped half way (this writer's own, or one that died: there is one
 *      writer), and this write goes on from `s`.
 *   3. Fence (release): no store below is seen before the odd counter.
 *   4. Store `flags`, `for_tick`, `lx`, `ly`, `rx`, `ry`, `buttons`, `lt` and `rt` with relaxed
 *      atomic stores, in the ranges readers copy.
 *   5. Store `pad_input.seq` = the odd value + 1 (release): even again, and the bytes are
 *      published. A write that stops before this step (an error, a panic, a crash) leaves the
 *      counter odd, never even over half a record: readers see a write in progress and give up
 *      with an error after their tries, until the next write stores the whole record.
 *
 * Reader (the host):
 *   1. Load `pad_input.seq` (acquire): `s1`. If it is odd, a write is in progress: back off and
 *      start over.
 *   2. Copy `flags`, `for_tick`, `lx`, `ly`, `rx`, `ry`, `buttons`, `lt` and `rt` with relaxed
 *      atomic loads (never plain or volatile reads).
 *   3. Fence (acquire), then load `pad_input.seq` (relaxed): `s2`.
 *   4. If `s1 == s2`, the copy is whole. Otherwise discard it and start over; give up with an
 *      error after a bounded number of tries.
 */

/* One copy of the guarded bytes, torn or not: the counter decides. */
static inline void ibf_pad_input_copy_once_(const unsigned char *base, ibf_pad_input *out) {
    ibf_live_read_bytes_(base + 4, (unsigned char *)(void *)out + 4, 28);
}

/* One try of a read: true if the copy ran inside one stable period of the counter. */
static inline bool ibf_pad_input_try_read_(const unsigned char *base, ibf_pad_input *out) {
    uint32_t s1 = ibf_live_load_acquire_u32_(base + 0);
    if ((s1 & 1U) != 0) {
        return false;
    }
    ibf_pad_input_copy_once_(base, out);
    /* Orders the copy's loads before the re-check: if the copy saw a store of a later write,
     * this load sees at least the odd counter that write began with. */
    ibf_live_fence_acquire_();
    if (ibf_live_load_relaxed_u32_(base + 0) != s1) {
        return false;
    }
    out->seq = s1;
    return true;
}

/**
 * Reads what seqlock pad_input guards into *out, at most max_tries tries (IBF_HOST_TRIES
 * for the host: the client writes it, and one that died mid-write must not hold the host
 * up): IBF_OK, or IBF_CONTENDED when every try found a write in progress
 * (then *out holds a torn copy: use none of it).
 * out->seq is the (even) counter the copy matched.
 * *retries (may be NULL) is the tries that failed first.
 */
static inline int ibf_pad_input_read(const ibf_pad_input *shared, ibf_pad_input *out, uint32_t max_tries, uint32_t *retries) {
    const unsigned char *base = (const unsigned char *)(const void *)shared;
    uint32_t tries;
    for (tries = 0; tries < max_tries; tries++) {
        if (tries > 0) {
            ibf_live_back_off_(tries);
        }
        if (ibf_pad_input_try_read_(base, out)) {
            if (retries != NULL) {
                *retries = tries;
            }
            return IBF_OK;
        }
    }
    if (retries != NULL) {
        *retries = max_tries;
    }
    return IBF_CONTENDED;
}

/**
 * Writes *value under seqlock pad_input: makes the counter odd, stores the bytes, makes it
 * even (release). One writer at a time.
 * value->seq is ignored.
 * Bound to no claim: it keeps writing after the row was freed, into the next client's block.
 * For a host, a test or a tool that writes without a claim; a client writes with
 * ibf_pad_input_write (its claim of session `client` first).
 */
static inline void ibf_pad_input_write_unscoped(ibf_pad_input *shared, const ibf_pad_input *value) {
    unsigned char *base = (unsigned char *)(void *)shared;
    uint32_t s;
    s = ibf_live_load_relaxed_u32_(base + 0);
    if ((s & 1U) == 0) {
        s += 1U;
    }
    ibf_live_store_relaxed_u32_(base + 0, s);
    /* Orders the odd counter before every store below. */
    ibf_live_fence_release_();
    ibf_live_write_bytes_(base + 4, (const unsigned char *)(const void *)value + 4, 28);
    ibf_live_store_release_u32_(base + 0, (uint32_t)(s + 1U));
}

/*
 * Seqlock `param_defs`. The 32-bit counter `params_header.defs_seq` guards `def_count` and
 * `defs` (param_def[max_params]) of `params_header`: odd while the client writes.
 * A client's parameter definitions: defs_seq is odd while the client writes them
 *
 * Writer (the client; one at a time):
 *   1. Check everything that can fail (sizes, values) before the counter is touched.
 *   2. Load `params_header.defs_seq` (relaxed): `s`. If `s` is even, store `s + 1` (relaxed);
 *      if it is odd, a write stopped half way (this writer's own, or one that died: there is
 *      one writer), and this write goes on from `s`.
 *   3. Fence (release): no store below is seen before the odd counter.
 *   4. Store `def_count` and `defs` (param_def[max_params]) with relaxed atomic stores, in the
 *      ranges readers copy.
 *   5. Store `params_header.defs_seq` = the odd value + 1 (release): even again, and the bytes
 *      are published. A write that stops before this step (an error, a panic, a crash) leaves
 *      the counter odd, never even over half a record: readers see a write in progress and give
 *      up with an error after their tries, until the next write stores the whole record.
 *
 * Reader (the host):
 *   1. Load `params_header.defs_seq` (acquire): `s1`. If it is odd, a write is in progress:
 *      back off and start over.
 *   2. Copy `def_count` and `defs` (param_def[max_params]) with relaxed atomic loads (never
 *      plain or volatile reads).
 *   3. Fence (acquire), then load `params_header.defs_seq` (relaxed): `s2`.
 *   4. If `s1 == s2`, the copy is whole. Otherwise discard it and start over; give up with an
 *      error after a bounded number of tries.
 */

/** What seqlock param_defs guards, as one consistent copy: ordinary memory, never shared. */
typedef struct ibf_param_defs_copy {
    /** `params_header.def_count`. */
    uint32_t def_count;
    /** The trailer part `defs` (param_def[max_params]). */
    ibf_param_def defs[IBF_MAX_PARAMS];
} ibf_param_defs_copy;

/* One copy of the guarded bytes, torn or not: the counter decides. */
static inline void ibf_param_defs_copy_once_(const unsigned char *base, ibf_param_defs_copy *out) {
    ibf_live_read_bytes_(base + 4, &out->def_count, 4);
    ibf_live_read_bytes_(base + 64, &out->defs, 8192);
}

/* One try of a read: true if the copy ran inside one stable period of the counter. */
static inline bool ibf_param_defs_try_read_(const unsigned char *base, ibf_param_defs_copy *out) {
    uint32_t s1 = ibf_live_load_acquire_u32_(base + 0);
    if ((s1 & 1U) != 0) {
        return false;
    }
    ibf_param_defs_copy_once_(base, out);
    /* Orders the copy's loads before the re-check: if the copy saw a store of a later write,
     * this load sees at least the odd counter that write began with. */
    ibf_live_fence_acquire_();
    if (ibf_live_load_relaxed_u32_(base + 0) != s1) {
        return false;
    }
    return true;
}

/**
 * Reads what seqlock param_defs guards into *out, at most max_tries tries (IBF_HOST_TRIES
 * for the host: the client writes it, and one that died mid-write must not hold the host
 * up): IBF_OK, or IBF_CONTENDED when every try found a write in progress
 * (then *out holds a torn copy: use none of it).
 * `len` is how many bytes from the struct's start are mapped: at least 8256, else
 * IBF_TOO_SHORT.
 * *retries (may be NULL) is the tries that failed first.
 */
static inline int ibf_param_defs_read(const ibf_params_header *shared, size_t len, ibf_param_defs_copy *out, uint32_t max_tries, uint32_t *retries) {
    const unsigned char *base = (const unsigned char *)(const void *)shared;
    uint32_t tries;
    if (len < 8256) {
        return IBF_TOO_SHORT;
    }
    for (tries = 0; tries < max_tries; tries++) {
        if (tries > 0) {
            ibf_live_back_off_(tries);
        }
        if (ibf_param_defs_try_read_(base, out)) {
            if (retries != NULL) {
                *retries = tries;
            }
            return IBF_OK;
        }
    }
    if (retries != NULL) {
        *retries = max_tries;
    }
    return IBF_CONTENDED;
}

/**
 * Writes *value under seqlock param_defs: makes the counter odd, stores the bytes, makes it
 * even (release). One writer at a time.
 * IBF_TOO_SHORT, and nothing written, when it does not fit `len` bytes.
 * Bound to no claim: it keeps writing after the row was freed, into the next client's block.
 * For a host, a test or a tool that writes without a claim; a client writes with
 * ibf_param_defs_write (its claim of session `client` first).
 */
static inline int ibf_param_defs_write_unscoped(ibf_params_header *shared, size_t len, const ibf_param_defs_copy *value) {
    unsigned char *base = (unsigned char *)(void *)shared;
    uint32_t s;
    if (len < 8256) {
        return IBF_TOO_SHORT;
    }
    s = ibf_live_load_relaxed_u32_(base + 0);
    if ((s & 1U) == 0) {
        s += 1U;
    }
    ibf_live_store_relaxed_u32_(base + 0, s);
    /* Orders the odd counter before every store below. */
    ibf_live_fence_release_();
    ibf_live_write_bytes_(base + 4, &value->def_count, 4);
    ibf_live_write_bytes_(base + 64, &value->defs, 8192);
    ibf_live_store_release_u32_(base + 0, (uint32_t)(s + 1U));
    return IBF_OK;
}

/*
 * Seqlock `param_values`. The 32-bit counter `params_header.values_seq` guards `values`
 * (param_value[max_params]) of `params_header`: odd while the host writes.
 * The parameters' values: values_seq is odd while the host writes them
 *
 * Writer (the host; one at a time):
 *   1. Check everything that can fail (sizes, values) before the counter is touched.
 *   2. Load `params_header.values_seq` (relaxed): `s`. If `s` is even, store `s + 1` (relaxed);
 *      if it is odd, a write stopped half way (this writer's own, or one that died: there is
 *      one writer), and this write goes on from `s`.
 *   3. Fence (release): no store below is seen before the odd counter.
 *   4. Store `values` (param_value[max_params]) with relaxed atomic stores, in the ranges
 *      readers copy.
 *   5. Store `params_header.values_seq` = the odd value + 1 (release): even again, and the
 *      bytes are published. A write that stops before this step (an error, a panic, a crash)
 *      leaves the counter odd, never even over half a record: readers see a write in progress
 *      and give up with an error after their tries, until the next write stores the whole
 *      record.
 *
 * Reader (the client):
 *   1. Load `params_header.values_seq` (acquire): `s1`. If it is odd, a write is in progress:
 *      back off and start over.
 *   2. Copy `values` (param_value[max_params]) with relaxed atomic loads (never plain or
 *      volatile reads).
 *   3. Fence (acquire), then load `params_header.values_seq` (relaxed): `s2`.
 *   4. If `s1 == s2`, the copy is whole. Otherwise discard it and start over; give up with an
 *      error after a bounded number of tries.
 */

/** What seqlock param_values guards, as one consistent copy: ordinary memory, never shared. */
typedef struct ibf_param_values_copy {
    /** The trailer part `values` (param_value[max_params]). */
    ibf_param_value values[IBF_MAX_PARAMS];
} ibf_param_values_copy;

/* One copy of the guarded bytes, torn or not: the counter decides. */
static inline void ibf_param_values_copy_once_(const unsigned char *base, ibf_param_values_copy *out) {
    ibf_live_read_bytes_(base + 8256, &out->values, 512);
}

/* One try of a read: true if the copy ran inside one stable period of the counter. */
static inline bool ibf_param_values_try_read_(const unsigned char *base, ibf_param_values_copy *out) {
    uint32_t s1 = ibf_live_load_acquire_u32_(base + 8);
    if ((s1 & 1U) != 0) {
        return false;
    }
    ibf_param_values_copy_once_(base, out);
    /* Orders the copy's loads before the re-check: if the copy saw a store of a later write,
     * this load sees at least the odd counter that write began with. */
    ibf_live_fence_acquire_();
    if (ibf_live_load_relaxed_u32_(base + 8) != s1) {
        return false;
    }
    return true;
}

/**
 * Reads what seqlock param_values guards into *out, at most max_tries tries (IBF_DEFAULT_TRIES
 * is a good number): IBF_OK, or IBF_CONTENDED when every try found a write in progress
 * (then *out holds a torn copy: use none of it).
 * `len` is how many bytes from the struct's start are mapped: at least 8768, else
 * IBF_TOO_SHORT.
 * *retries (may be NULL) is the tries that failed first.
 */
static inline int ibf_param_values_read(const ibf_params_header *shared, size_t len, ibf_param_values_copy *out, uint32_t max_tries, uint32_t *retries) {
    const unsigned char *base = (const unsigned char *)(const void *)shared;
    uint32_t tries;
    if (len < 8768) {
        return IBF_TOO_SHORT;
    }
    for (tries = 0; tries < max_tries; tries++) {
        if (tries > 0) {
            ibf_live_back_off_(tries);
        }
        if (ibf_param_values_try_read_(base, out)) {
            if (retries != NULL) {
                *retries = tries;
            }
            return IBF_OK;
        }
    }
    if (retries != NULL) {
        *retries = max_tries;
    }
    return IBF_CONTENDED;
}

/**
 * Writes *value under seqlock param_values: makes the counter odd, stores the bytes, makes it
 * even (release). One writer at a time.
 * IBF_TOO_SHORT, and nothing written, when it does not fit `len` bytes.
 */
static inline int ibf_param_values_write(ibf_params_header *shared, size_t len, const ibf_param_values_copy *value) {
    unsigned char *base = (unsigned char *)(void *)shared;
    uint32_t s;
    if (len < 8768) {
        return IBF_TOO_SHORT;
    }
    s = ibf_live_load_relaxed_u32_(base + 8);
    if ((s & 1U) == 0) {
        s += 1U;
    }
    ibf_live_store_relaxed_u32_(base + 8, s);
    /* Orders the odd counter before every store below. */
    ibf_live_fence_release_();
    ibf_live_write_bytes_(base + 8256, &value->values, 512);
    ibf_live_store_release_u32_(base + 8, (uint32_t)(s + 1U));
    return IBF_OK;
}

/*
 * Seqlock `stats`. The 32-bit counter `stats_header.seq` guards `count` and `entries`
 * (stat_entry[max_stats]) of `stats_header`: odd while the client writes.
 * A client's stats: seq is odd while the client writes them
 *
 * Writer (the client; one at a time):
 *   1. Check everything that can fail (sizes, values) before the counter is touched.
 *   2. Load `stats_header.seq` (relaxed): `s`. If `s` is even, store `s + 1` (relaxed); if it
 *      is odd, a write stopped half way (this writer's own, or one that died: there is one
 *      writer), and this write goes on from `s`.
 *   3. Fence (release): no store below is seen before the odd counter.
 *   4. Store `count` and `entries` (stat_entry[max_stats]) with relaxed atomic stores, in the
 *      ranges readers copy.
 *   5. Store `stats_header.seq` = the odd value + 1 (release): even again, and the bytes are
 *      published. A write that stops before this step (an error, a panic, a crash) leaves the
 *      counter odd, never even over half a record: readers see a write in progress and give up
 *      with an error after their tries, until the next write stores the whole record.
 *
 * Reader (the host):
 *   1. Load `stats_header.seq` (acquire): `s1`. If it is odd, a write is in progress: back off
 *      and start over.
 *   2. Copy `count` and `entries` (stat_entry[max_stats]) with relaxed atomic loads (never
 *      plain or volatile reads).
 *   3. Fence (acquire), then load `stats_header.seq` (relaxed): `s2`.
 *   4. If `s1 == s2`, the copy is whole. Otherwise discard it and start over; give up with an
 *      error after a bounded number of tries.
 */

/** What seqlock stats guards, as one consistent copy: ordinary memory, never shared. */
typedef struct ibf_stats_copy {
    /** `stats_header.count`. */
    uint32_t count;
    /** The trailer part `entries` (stat_entry[max_stats]). */
    ibf_stat_entry entries[IBF_MAX_STATS];
} ibf_stats_copy;

/* One copy of the guarded bytes, torn or not: the counter decides. */
static inline void ibf_stats_copy_once_(const unsigned char *base, ibf_stats_copy *out) {
    ibf_live_read_bytes_(base + 4, &out->count, 4);
    ibf_live_read_bytes_(base + 64, &out->entries, 4096);
}

/* One try of a read: true if the copy ran inside one stable period of the counter. */
static inline bool ibf_stats_try_read_(const unsigned char *base, ibf_stats_copy *out) {
    uint32_t s1 = ibf_live_load_acquire_u32_(base + 0);
    if ((s1 & 1U) != 0) {
        return false;
    }
    ibf_stats_copy_once_(base, out);
    /* Orders the copy's loads before the re-check: if the copy saw a store of a later write,
     * this load sees at least the odd counter that write began with. */
    ibf_live_fence_acquire_();
    if (ibf_live_load_relaxed_u32_(base + 0) != s1) {
        return false;
    }
    return true;
}

/**
 * Reads what seqlock stats guards into *out, at most max_tries tries (IBF_HOST_TRIES
 * for the host: the client writes it, and one that died mid-write must not hold the host
 * up): IBF_OK, or IBF_CONTENDED when every try found a write in progress
 * (then *out holds a torn copy: use none of it).
 * `len` is how many bytes from the struct's start are mapped: at least 4160, else
 * IBF_TOO_SHORT.
 * *retries (may be NULL) is the tries that failed first.
 */
static inline int ibf_stats_read(const ibf_stats_header *shared, size_t len, ibf_stats_copy *out, uint32_t max_tries, uint32_t *retries) {
    const unsigned char *base = (const unsigned char *)(const void *)shared;
    uint32_t tries;
    if (len < 4160) {
        return IBF_TOO_SHORT;
    }
    for (tries = 0; tries < max_tries; tries++) {
        if (tries > 0) {
            ibf_live_back_off_(tries);
        }
        if (ibf_stats_try_read_(base, out)) {
            if (retries != NULL) {
                *retries = tries;
            }
            return IBF_OK;
        }
    }
    if (retries != NULL) {
        *retries = max_tries;
    }
    return IBF_CONTENDED;
}

/**
 * Writes *value under seqlock stats: makes the counter odd, stores the bytes, makes it
 * even (release). One writer at a time.
 * IBF_TOO_SHORT, and nothing written, when it does not fit `len` bytes.
 * Bound to no claim: it keeps writing after the row was freed, into the next client's block.
 * For a host, a test or a tool that writes without a claim; a client writes with
 * ibf_stats_write (its claim of session `client` first).
 */
static inline int ibf_stats_write_unscoped(ibf_stats_header *shared, size_t len, const ibf_stats_copy *value) {
    unsigned char *base = (unsigned char *)(void *)shared;
    uint32_t s;
    if (len < 4160) {
        return IBF_TOO_SHORT;
    }
    s = ibf_live_load_relaxed_u32_(base + 0);
    if ((s & 1U) == 0) {
        s += 1U;
    }
    ibf_live_store_relaxed_u32_(base + 0, s);
    /* Orders the odd counter before every store below. */
    ibf_live_fence_release_();
    ibf_live_write_bytes_(base + 4, &value->count, 4);
    ibf_live_write_bytes_(base + 64, &value->entries, 4096);
    ibf_live_store_release_u32_(base + 0, (uint32_t)(s + 1U));
    return IBF_OK;
}

/*
 * Ring `snapshot_ring`. 8 slots (`ring_slots`) of 32768 bytes (`ring_slot_size`), each a
 * `ring_slot_header` and its payload under seqlock `ring_slot`; `bridge_header.snapshot_seq`
 * counts publications, and the newest is in slot `(bridge_header.snapshot_seq - 1) %
 * ring_slots`.
 * Snapshots published: the newest is in slot (snapshot_seq - 1) % ring_slots, and none is
 * published while snapshot_seq is 0
 *
 * Writer (the host):
 *   1. Take `n` = `bridge_header.snapshot_seq`, the publications so far.
 *   2. Write slot `n % ring_slots` under seqlock `ring_slot`: the `ring_slot_header` at the
 *      slot's start, then the payload `payload` (snapshot), with `size` = the payload's bytes,
 *      and `publish_seq` = `n + 1` (the publication's number: `bridge_header.snapshot_seq` once
 *      it is published).
 *   3. Store `bridge_header.snapshot_seq` = `n + 1` (release): the slot is published.
 *
 * Reader (the client):
 *   1. Load `bridge_header.snapshot_seq` (acquire): `h`. If `h` is 0, nothing is published yet.
 *   2. Copy slot `(h - 1) % ring_slots` under seqlock `ring_slot`: the payload is `size` bytes;
 *      copy as much of them as `snapshot` holds and zero the rest (an older producer's shorter
 *      record), and keep any bytes past it.
 *   3. If the copy is torn, start over from the first step: the newest slot may have moved on.
 */

/*
 * The ring's geometry is the writer's: `slot_count` slots of `slot_size` bytes (the schema
 * says 8 of 32768; a host may build another, which its header says and
 * ibf_attach checks). Pass the numbers the attached handle gives, never the constants.
 * Every function below refuses (IBF_TOO_SHORT, or NULL) a slot count of 0 or a slot size
 * under 64 bytes or not a multiple of 8.
 */
static inline bool ibf_snapshot_ring_geometry_ok_(uint64_t slot_count, uint64_t slot_size) {
    return slot_count != 0 && slot_size >= 64U && slot_size % 8U == 0 && slot_size <= (uint64_t)SIZE_MAX / slot_count;
}

/** Slot `index` of the ring at `slots` (`slot_count` slots, `slot_size` bytes apart), or NULL
 * past the last slot or when the geometry is refused. */
static inline ibf_ring_slot_header *ibf_snapshot_ring_slot(void *slots, uint64_t slot_count, uint64_t slot_size, uint64_t index) {
    if (!ibf_snapshot_ring_geometry_ok_(slot_count, slot_size) || index >= slot_count) {
        return NULL;
    }
    return (ibf_ring_slot_header *)(void *)((unsigned char *)slots + (size_t)index * (size_t)slot_size);
}

/**
 * Copies the newest slot into *out under seqlock ring_slot: IBF_OK, IBF_EMPTY before
 * the first publication (out untouched), IBF_CONTENDED after max_tries tries (out torn),
 * or IBF_TOO_SHORT for a refused geometry. Each try picks the newest slot again, so a
 * reader the writer laps moves on to the newer publication. `head` holds the counter,
 * `slots` is the first slot (8-aligned, `slot_count` slots of `slot_size` bytes, as the
 * writer built them); *retries (may be NULL) is the tries that failed.
 * The payload's extra bytes go into `extra` as ibf_ring_slot_read says.
 */
static inline int ibf_snapshot_ring_read_newest(const ibf_bridge_header *head, const void *slots, uint64_t slot_count, uint64_t slot_size, ibf_ring_slot_copy *out, void *extra, size_t extra_cap, uint32_t max_tries, uint32_t *retries) {
    uint32_t tries;
    if (!ibf_snapshot_ring_geometry_ok_(slot_count, slot_size)) {
        return IBF_TOO_SHORT;
    }
    for (tries = 0; tries < max_tries; tries++) {
        uint64_t published;
        const unsigned char *slot;
        if (tries > 0) {
            ibf_live_back_off_(tries);
        }
        published = (uint64_t)ibf_bridge_header_load_snapshot_seq(head);
        if (published == 0) {
            if (retries != NULL) {
                *retries = tries;
            }
            return IBF_EMPTY;
        }
        slot = (const unsigned char *)slots + (size_t)((published - 1U) % slot_count) * (size_t)slot_size;
        if (ibf_ring_slot_try_read_(slot, out, (size_t)slot_size, extra, extra_cap)) {
            if (retries != NULL) {
                *retries = tries;
            }
            return IBF_OK;
        }
    }
    if (retries != NULL) {
        *retries = max_tries;
    }
    return IBF_CONTENDED;
}

/**
 * The writer's side: writes *value into the next slot under its seqlock, then publishes it
 * by storing the new head (release). IBF_OK, or IBF_TOO_SHORT (nothing published) when
 * the geometry is refused or the payload does not fit a slot. One writer only. * It first sets value->publish_seq to the new head: the slot's publication number. */
static inline int ibf_snapshot_ring_publish(ibf_bridge_header *head, void *slots, uint64_t slot_count, uint64_t slot_size, ibf_ring_slot_copy *value, const void *extra) {
    uint64_t published;
    unsigned char *slot;
    int status;
    if (!ibf_snapshot_ring_geometry_ok_(slot_count, slot_size)) {
        return IBF_TOO_SHORT;
    }
    published = (uint64_t)ibf_bridge_header_load_snapshot_seq(head);
    slot = (unsigned char *)slots + (size_t)(published % slot_count) * (size_t)slot_size;
    value->publish_seq = (uint64_t)(published == UINT64_MAX ? 0U : published + 1U);
    status = ibf_ring_slot_write((ibf_ring_slot_header *)(void *)slot, (size_t)slot_size, value, extra);
    if (status != IBF_OK) {
        return status;
    }
    /* A count: it wraps to 0 at its end, explicitly (as Rust's and Python's publish). */
    ibf_bridge_header_store_snapshot_seq(head, (uint64_t)(published == UINT64_MAX ? 0U : published + 1U));
    return IBF_OK;
}

/*
 * Ring `events`. `snapshot.event_total` counts the events ever written, and `snapshot.events`
 * holds the last 32.
 * Events detected since start-up: event i is at events[i % max_events], so only the last
 * max_events are kept
 *
 * Writer (the host):
 *   1. Write event `i` (the current `snapshot.event_total`) into `events[i % 32]`.
 *   2. Store `snapshot.event_total` = `i + 1`.
 *
 * Reader:
 *   1. Take `total` from a consistent copy of `snapshot` (its seqlock, or its ring slot).
 *   2. The events since a count `c` are numbers `max(c, total - 32)` to `total - 1`; event `i`
 *      is `events[i % 32]`.
 *   3. Events from `c` to `total - 32 - 1` were overwritten before they were read: count them
 *      as lost.
 */

/**
 * The entries of a consistent copy of ibf_snapshot from number `since` on: returns how many
 * there are, *first (may be NULL) the number of the first, and *lost (may be NULL) how many
 * from `since` on were overwritten before they were read. Entry `n` is ibf_events_at(copy, n).
 * Pass the copy's event_total as `since` next time.
 */
static inline uint64_t ibf_events_since(const ibf_snapshot *copy, uint64_t since, uint64_t *first, uint64_t *lost) {
    uint64_t total = (uint64_t)copy->event_total;
    uint64_t oldest = total > 32U ? total - 32U : 0;
    uint64_t next = since > oldest ? since : oldest;
    if (next > total) {
        next = total;
    }
    if (first != NULL) {
        *first = next;
    }
    if (lost != NULL) {
        *lost = oldest > since ? oldest - since : 0;
    }
    return total - next;
}

/** The writer's side: stores *entry as entry number value->event_total (at
 * events[n % 32], over the oldest once the ring is full) and counts it; returns its
 * number. *value is the writer's copy, which it then publishes (plain writes). */
static inline uint64_t ibf_events_push(ibf_snapshot *value, const ibf_event *entry) {
    uint64_t n = (uint64_t)value->event_total;
    value->events[(size_t)(n % 32U)] = *entry;
    value->event_total++;
    return n;
}

/** Entry number `number` of the ring in a copy of ibf_snapshot. */
static inline const ibf_event *ibf_events_at(const ibf_snapshot *copy, uint64_t number) {
    return &copy->events[(size_t)(number % 32U)];
}

#undef IBF_LIVE_BARRIER_
#undef IBF_LIVE_SPIN_
/*
 * Region protocols
 *
 * The helpers below play each side of the queues, broadcast rings, mailboxes, exchanges and
 * sessions the schema declares, as abi_runtime does (byte_queue, broadcast_ring, mailbox,
 * triple_buffer, claim): the same checks, in the same order, with the same orderings. Each
 * takes the region's start and its length in bytes (the attach helpers' pointer and _size),
 * and trusts nothing the other side wrote: a capacity, position, size, length or state that
 * cannot be right is a named error (ibf_protocol_result_name), never an access outside the
 * region. Entries and lists are copied in whole 8-byte words with relaxed atomics.
 */

/** The entry did not fit: dropped, and counted. Or a draw list's item did not fit. */
#define IBF_DROPPED 10
/** A ring reader was overtaken: *missed entries were lost; the next read goes on. */
#define IBF_LAPPED 11
/** A mailbox has no answer yet (client), or no request waits (server). */
#define IBF_PENDING 12
/** The row was freed by the host, or another client claimed it since. */
#define IBF_DISCONNECTED 13
/** The host reloaded (its generation changed): every row was freed. */
#define IBF_RELOADED 14
/** The host is going away. */
#define IBF_HOST_EXITING 15
/** The row (or the pad) is not free. */
#define IBF_NOT_FREE 16
/** The capacity is 0, not a multiple of 8, or past the region. */
#define IBF_QUEUE_CAPACITY 20
/** write_pos and read_pos are not in order within the capacity. */
#define IBF_QUEUE_POSITIONS 21
/** An entry's size (or its parts' lengths) cannot be right. */
#define IBF_QUEUE_ENTRY_SIZE 22
/** The entry given is not a whole entry. */
#define IBF_QUEUE_BAD_ENTRY 23
/** The capacity is 0, not a multiple of 8, or past the region. */
#define IBF_RING_CAPACITY 24
/** tail_pos and write_pos are not in order (or a writer keeps them so). */
#define IBF_RING_POSITIONS 25
/** An entry's size cannot be right. */
#define IBF_RING_ENTRY_SIZE 26
/** The entry given is not a whole entry. */
#define IBF_RING_BAD_ENTRY 27
/** The areas do not fit the region, or one is empty. */
#define IBF_MAILBOX_CAPACITY 28
/** A length past its area. */
#define IBF_MAILBOX_LENGTH 29
/** A request is waiting for its answer. */
#define IBF_MAILBOX_BUSY 30
/** The request does not fit the request area (capacity - 1 bytes). */
#define IBF_MAILBOX_TOO_LONG 31
/** The counters cannot be right. */
#define IBF_MAILBOX_SEQUENCE 32
/** The lists' count, size or capacities do not fit the region. */
#define IBF_EXCHANGE_GEOMETRY 33
/** A state word the other side cannot have left; nothing was changed. */
#define IBF_EXCHANGE_STATE 34
/** A list's count or payload length past its capacity (or an index or a range a reader asks
 * for past them). */
#define IBF_EXCHANGE_LIST_LENGTH 35
/** The row (or pad) is past the table, or the region does not hold it. */
#define IBF_SESSION_ROW 36
/** The state word changed under each of IBF_EXCHANGE_TRIES compare-and-swaps (a peer that
 * rewrites it nonstop); nothing was changed. */
#define IBF_EXCHANGE_CONTENDED 37
/** A part of an entry (its source, its text) past its bound. */
#define IBF_ENTRY_PART_TOO_LONG 38
/** An entry's parts end past its size. */
#define IBF_ENTRY_PART_PAST_ENTRY 39
/** Compare-and-swaps of an exchange's state word one call makes at most. */
#define IBF_EXCHANGE_TRIES 10000U

/** The snake_case name of a protocol result ("ok", "dropped", "queue_capacity", ...): the
 * header's one table (ibf_result_name), whose numbers no other family shares. */
static inline const char *ibf_protocol_result_name(int code) {
    return ibf_result_name(code);
}

/* The little-endian integer of `width` bytes at `at` of ordinary bytes. */
static inline uint64_t ibf_proto_get_(const unsigned char *bytes, size_t at, size_t width) {
    uint64_t value = 0;
    size_t i;
    for (i = width; i > 0; i--) {
        value = (value << 8) | bytes[at + i - 1];
    }
    return value;
}

/* Stores the low `width` bytes of `value`, little-endian, at `at` of ordinary bytes. */
static inline void ibf_proto_put_(unsigned char *bytes, size_t at, size_t width, uint64_t value) {
    size_t i;
    for (i = 0; i < width; i++) {
        bytes[at + i] = (unsigned char)(value >> (8U * i));
    }
}

/* A header field of 1, 2, 4 or 8 bytes at `at`, loaded with acquire. */
static inline uint64_t ibf_proto_load_(const unsigned char *at, size_t width) {
    switch (width) {
    case 1: return ibf_live_load_acquire_u8_(at);
    case 2: return ibf_live_load_acquire_u16_(at);
    case 4: return ibf_live_load_acquire_u32_(at);
    default: return ibf_live_load_acquire_u64_(at);
    }
}

/* A geometry field of a header (`width` bytes at `field`): from `laid_out`, the host's own copy
 * of the header as it laid it out (ibf_attached_laid_out), when given; else from the
 * mapping's header at `base`, loaded with acquire. */
static inline uint64_t ibf_proto_geometry_(const unsigned char *base, const unsigned char *laid_out, size_t field, size_t width) {
    uint64_t v = 0;
    size_t i;
    if (laid_out == NULL) {
        return ibf_proto_load_(base + field, width);
    }
    for (i = width; i > 0; i--) {
        v = (v << 8) | laid_out[field + i - 1U];
    }
    return v;
}

/* The capacity field (`width` bytes at `field`) of an area of entries at `area` of a region
 * of `len` bytes, checked: a multiple of 8 from 8 to the bytes after `area`; else 0. */
static inline uint64_t ibf_proto_area_capacity_(const unsigned char *base, const unsigned char *laid_out, size_t len, size_t field, size_t width, size_t area) {
    uint64_t found;
    if (len < area || len < field + width || area % 8U != 0) {
        return 0;
    }
    found = ibf_proto_geometry_(base, laid_out, field, width);
    if (found == 0 || found % 8U != 0 || found > (uint64_t)(len - area)) {
        return 0;
    }
    return found;
}

/*
 * A queue of variable-size entries in the `log_queue_header.capacity` bytes after the header,
 * from the client to the host: the writer never overwrites what the reader has not consumed,
 * and an entry that does not fit is dropped and counted. `log_queue_header.write_pos` and
 * `log_queue_header.read_pos` count bytes ever written and consumed, and never wrap. Each entry
 * is a `log_entry`, then source (`source_len` bytes, at most `log_source_max`) and text
 * (`text_len` bytes, at most `log_text_max`), padded to a multiple of 8; `size` holds the whole
 * entry's bytes and `kind` is `record`. A `padding` entry fills the area to its end, and the
 * next entry starts at offset 0.
 * A client's log queue: the client writes, the host reads. Full means the entry is dropped and
 * counted
 *
 * Writer (the client; one):
 *   1. Check `log_queue_header.capacity` and its own `log_queue_header.write_pos` (never trust
 *      them): a broken peer is an error, never an access outside the area.
 *   2. Load `log_queue_header.read_pos` (acquire). If the entry (and the padding to the area's
 *      end, when it does not fit before it) is more than the free bytes `capacity - (write_pos
 *      - read_pos)`, add 1 to `log_queue_header.dropped` (release) and stop: the entry is
 *      dropped.
 *   3. Copy the padding entry, if any, and the entry in whole 8-byte words (relaxed atomic
 *      stores).
 *   4. Store `log_queue_header.write_pos` + the bytes written (release): the entry is
 *      published.
 *
 * Reader (the host; one):
 *   1. Load `log_queue_header.write_pos` (acquire). If it equals `log_queue_header.read_pos`,
 *      the queue is empty.
 *   2. Check that `log_queue_header.write_pos` is ahead of `log_queue_header.read_pos` by at
 *      most `log_queue_header.capacity`, and that the entry's size is a multiple of 8, at least
 *      its header, within the bytes written and the area's end, and its parts within it:
 *      anything else is a named error, counted, and nothing is copied.
 *   3. Copy the entry with relaxed atomic loads; skip a padding entry to offset 0.
 *   4. Store `log_queue_header.read_pos` + the bytes consumed (release): the writer may reuse
 *      them.
 */

/**
 * An entry of `log_queue` as a reader copies it: its ibf_log_entry as written (its size, kind and
 * parts' lengths included), then each part, NUL-terminated.
 */
typedef struct ibf_log_queue_record {
    ibf_log_entry head;
    char source[33];
    char text[969];
} ibf_log_queue_record;

IBF_STATIC_ASSERT_((uint64_t)(uint16_t)1040U == 1040U, "log_queue: the largest entry fits its size field");

/* Builds the whole entry into `buf` (1040 bytes): *entry with its size, kind and
 * parts' lengths set here, then the parts, zero-padded to a multiple of 8. Returns its size,
 * or 0 when a part is longer than its bound. */
static inline size_t ibf_log_queue_build_(unsigned char *buf, const ibf_log_entry *entry, const void *source, size_t source_len, const void *text, size_t text_len) {
    ibf_log_entry head = *entry;
    size_t size = 40U;
    size_t at = 40U;
    if (source_len > 32U || (source == NULL && source_len != 0)) {
        return 0;
    }
    size += source_len;
    if (text_len > 968U || (text == NULL && text_len != 0)) {
        return 0;
    }
    size += text_len;
    size = (size + 7U) & ~(size_t)7U;
    head.size = (uint16_t)size;
    head.kind = (ibf_log_entry_kind)0U;
    head.source_len = (uint8_t)source_len;
    head.text_len = (uint16_t)text_len;
    memset(buf, 0, size);
    memcpy(buf, &head, 40U);
    if (source_len != 0) {
        memcpy(buf + at, source, source_len);
    }
    at += source_len;
    if (text_len != 0) {
        memcpy(buf + at, text, text_len);
    }
    at += text_len;
    (void)at;
    return size;
}

/* The record of an entry of `size` bytes whose first min(size, 1040) bytes were copied
 * into `buf` (size is at least its struct): IBF_OK, or IBF_ENTRY_PART_TOO_LONG when a
 * part's length passes its bound, IBF_ENTRY_PART_PAST_ENTRY when the parts end past the
 * entry (abi_runtime's entry_parts::split). Parts within their bounds end within the bytes
 * copied. */
static inline int ibf_log_queue_parse_(const unsigned char *buf, uint64_t size, ibf_log_queue_record *out) {
    uint64_t at = 40U;
    memcpy(&out->head, buf, 40U);
    {
        uint64_t n = (uint64_t)out->head.source_len;
        if (n > 32U) {
            return IBF_ENTRY_PART_TOO_LONG;
        }
        if (at + n > size) {
            return IBF_ENTRY_PART_PAST_ENTRY;
        }
        memcpy(out->source, buf + at, (size_t)n);
        out->source[(size_t)n] = '\0';
        at += n;
    }
    {
        uint64_t n = (uint64_t)out->head.text_len;
        if (n > 968U) {
            return IBF_ENTRY_PART_TOO_LONG;
        }
        if (at + n > size) {
            return IBF_ENTRY_PART_PAST_ENTRY;
        }
        memcpy(out->text, buf + at, (size_t)n);
        out->text[(size_t)n] = '\0';
        at += n;
    }
    return IBF_OK;
}

/* The size and the padding flag of the entry whose first word is at `at`. */
static inline uint64_t ibf_log_queue_head_(const unsigned char *at, bool *padding) {
    unsigned char word[8];
    uint64_t value = ibf_live_load_relaxed_u64_(at);
    memcpy(word, &value, 8);
    *padding = ibf_proto_get_(word, 2U, 1U) == 1U;
    return ibf_proto_get_(word, 0U, 2U);
}

/* Writes a padding entry of `size` bytes (its first word) at `at`. */
static inline void ibf_log_queue_pad_(unsigned char *at, uint64_t size) {
    unsigned char word[8] = {0};
    ibf_proto_put_(word, 0U, 2U, size);
    ibf_proto_put_(word, 2U, 1U, 1U);
    ibf_live_write_bytes_(at, word, 8);
}

/**
 * The writer's side of queue `log_queue` in the `len` bytes at `region` (its ibf_log_entry
 * header, then its area): copies *entry (its size, kind and parts' lengths set here) and the
 * parts into the queue, after a padding entry when it does not fit before the area's end, and
 * publishes it (release). IBF_OK; IBF_DROPPED (counted) when there is no room;
 * IBF_ENTRY_PART_TOO_LONG when a part passes its bound; IBF_QUEUE_CAPACITY or
 * IBF_QUEUE_POSITIONS for what the reader or the header's writer left broken (or a write_pos
 * so close to UINT64_MAX that the entry would end past it). One writer. * Bound to no claim: it keeps writing after the row was freed, into the next client's queue;
 * for a host, a test or a tool. A client pushes with ibf_log_queue_push (its claim first). */
static inline int ibf_log_queue_push_unscoped(void *region, size_t len, const ibf_log_entry *entry, const void *source, size_t source_len, const void *text, size_t text_len) {
    unsigned char *base = (unsigned char *)region;
    uint64_t buf[130];
    uint64_t capacity, write, read, at, pad, size;
    size = (uint64_t)ibf_log_queue_build_((unsigned char *)buf, entry, source, source_len, text, text_len);
    if (size == 0) {
        return IBF_ENTRY_PART_TOO_LONG;
    }
    capacity = ibf_proto_area_capacity_(base, NULL, len, 16U, 4U, 64U);
    if (capacity == 0 || len < 64U) {
        return IBF_QUEUE_CAPACITY;
    }
    write = ibf_live_load_relaxed_u64_(base + 0);
    read = ibf_live_load_acquire_u64_(base + 32);
    if (read % 8U != 0 || write % 8U != 0 || write < read || write - read > capacity) {
        return IBF_QUEUE_POSITIONS;
    }
    at = write % capacity;
    pad = size > capacity - at ? capacity - at : 0;
    /* The entry's end must be a u64: no honest writer gets this close to UINT64_MAX. */
    if (pad + size > UINT64_MAX - write) {
        return IBF_QUEUE_POSITIONS;
    }
    if (pad + size > capacity - (write - read)) {
        (void)ibf_live_fetch_add_u64_(base + 8, 1U);
        return IBF_DROPPED;
    }
    if (pad > 0) {
        ibf_log_queue_pad_(base + 64U + (size_t)at, pad);
    }
    ibf_live_write_bytes_(base + 64U + (size_t)((write + pad) % capacity), buf, (size_t)size);
    ibf_live_store_release_u64_(base + 0, write + pad + size);
    return IBF_OK;
}

/**
 * The reader's side of queue `log_queue`: copies the next entry into *out, skipping padding,
 * and frees its bytes for the writer (release). IBF_OK; IBF_EMPTY when there is none;
 * IBF_QUEUE_CAPACITY, IBF_QUEUE_POSITIONS or IBF_QUEUE_ENTRY_SIZE for what a broken
 * writer wrote (then nothing is consumed); IBF_ENTRY_PART_TOO_LONG or
 * IBF_ENTRY_PART_PAST_ENTRY for an entry whose parts cannot be right (it is consumed). One
 * reader. The capacity is read from `laid_out` when given: the host's own copy of the header
 * (ibf_attached_laid_out), so that a client's write to it never reaches the host; NULL reads
 * the mapping's (ibf_log_queue_pop).
 */
static inline int ibf_log_queue_pop_laid_out(void *region, size_t len, const unsigned char *laid_out, ibf_log_queue_record *out) {
    unsigned char *base = (unsigned char *)region;
    uint64_t buf[130];
    uint64_t capacity, turn;
    capacity = ibf_proto_area_capacity_(base, laid_out, len, 16U, 4U, 64U);
    if (capacity == 0 || len < 64U) {
        return IBF_QUEUE_CAPACITY;
    }
    /* Each turn consumes at least 8 bytes of padding: bounded by one area's worth. */
    for (turn = 0; turn <= capacity / 8U; turn++) {
        uint64_t read = ibf_live_load_relaxed_u64_(base + 32);
        uint64_t write = ibf_live_load_acquire_u64_(base + 0);
        uint64_t at, size;
        bool padding;
        if (read % 8U != 0 || write % 8U != 0 || write < read || write - read > capacity) {
            return IBF_QUEUE_POSITIONS;
        }
        if (write == read) {
            return IBF_EMPTY;
        }
        at = read % capacity;
        size = ibf_log_queue_head_(base + 64U + (size_t)at, &padding);
        if (size % 8U != 0 || size < (padding ? 8U : 40U) || size > write - read || size > capacity - at) {
            return IBF_QUEUE_ENTRY_SIZE;
        }
        if (padding) {
            ibf_live_store_release_u64_(base + 32, read + size);
            continue;
        }
        ibf_live_read_bytes_(base + 64U + (size_t)at, buf, (size_t)(size < 1040U ? size : 1040U));
        ibf_live_store_release_u64_(base + 32, read + size);
        return ibf_log_queue_parse_((const unsigned char *)buf, size, out);
    }
    return IBF_EMPTY;
}

/** ibf_log_queue_pop_laid_out with the capacity the mapping's header holds (a side that
 * attached: the host wrote it). */
static inline int ibf_log_queue_pop(void *region, size_t len, ibf_log_queue_record *out) {
    return ibf_log_queue_pop_laid_out(region, len, NULL, out);
}

/** Entries the writer of queue `log_queue` dropped so far (0 for a region too short). */
static inline uint64_t ibf_log_queue_dropped(const void *region, size_t len) {
    if (len < 8U + 8U) {
        return 0;
    }
    return ibf_live_load_relaxed_u64_((const unsigned char *)region + 8);
}

/*
 * A ring of variable-size entries in the `log_ring_header.capacity` bytes after the header,
 * from the host to any number of readers; the oldest entries are overwritten, and a reader the
 * writer overtook is told how many entries it missed, never given a torn one.
 * `log_ring_header.write_pos` counts bytes ever written, `log_ring_header.tail_pos` is the
 * oldest whole entry, `log_ring_header.entries` counts entries, and each entry's
 * `log_entry.seq` holds the entries written before it. Each entry is a `log_entry`, then source
 * (`source_len` bytes, at most `log_source_max`) and text (`text_len` bytes, at most
 * `log_text_max`), padded to a multiple of 8; `size` holds the whole entry's bytes and `kind`
 * is `record`. A `padding` entry fills the area to its end, and the next entry starts at offset
 * 0.
 * The host log ring: one writer (the host's log drain), any number of readers, oldest
 * overwritten
 *
 * Writer (the host; one):
 *   1. Work out the bytes the entry (and any padding to the area's end) overwrites, and move
 *      `log_ring_header.tail_pos` past every whole entry in them; store it (release), then
 *      fence (release), before any byte is written.
 *   2. Write the padding entry, if any, and the entry with `log_entry.seq` =
 *      `log_ring_header.entries`, in whole 8-byte words (relaxed).
 *   3. Store `log_ring_header.entries` + 1 (relaxed), then `log_ring_header.write_pos` + the
 *      bytes written (release).
 *
 * Readers (the client; any number):
 *   1. Join at `log_ring_header.write_pos` (the newest) or `log_ring_header.tail_pos` (the
 *      oldest kept). Then, for each entry: load `log_ring_header.write_pos` (acquire); if it
 *      equals the reader's position, there is nothing new.
 *   2. Load `log_ring_header.tail_pos` (acquire). If the reader's position is behind it, the
 *      reader was lapped: report `Lapped { missed }` (the missed entries, from `log_entry.seq`
 *      of the oldest kept entry) and go on from `log_ring_header.tail_pos`.
 *   3. Copy the entry's size word, check it (a multiple of 8, at least the header, within the
 *      bytes written and the area's end), then copy the entry with relaxed atomic loads.
 *   4. Fence (acquire), then load `log_ring_header.tail_pos` again: if it passed the entry, the
 *      copy may be torn; throw it away and report the lap. Otherwise the entry is whole.
 */

/** An entry of `log_ring` as a reader copies it: the same format as `log_queue`'s. */
typedef ibf_log_queue_record ibf_log_ring_record;

/** A reader of ring `log_ring`: its position, and the entry a lap left to hand out. */
typedef struct ibf_log_ring_reader {
    uint64_t capacity;
    uint64_t cursor;
    uint64_t next_seq;
    bool has_next_seq;
    bool has_pending;
    /* Overtaken, and no entry read since. */
    bool lapped;
    /* What parsing the pending entry gave. */
    int pending_code;
    /** Times this reader was lapped. */
    uint64_t laps;
    ibf_log_ring_record pending;
} ibf_log_ring_reader;

/* Whether an entry of `size` at `pos` can be right, `limit` bytes written after it. */
static inline bool ibf_log_ring_fits_(uint64_t capacity, uint64_t pos, uint64_t size, bool padding, uint64_t limit) {
    uint64_t least = padding ? 8U : (40U > 16U + 8U ? 40U : 16U + 8U);
    return size % 8U == 0 && size >= least && size <= limit && size <= capacity - pos % capacity;
}

static inline int ibf_log_ring_capacity_(const unsigned char *base, size_t len, uint64_t *capacity) {
    *capacity = ibf_proto_area_capacity_(base, NULL, len, 16U, 4U, 64U);
    return *capacity == 0 || len < 64U ? IBF_RING_CAPACITY : IBF_OK;
}

/**
 * The writer's side of ring `log_ring`: appends *entry and its parts (size, kind, parts'
 * lengths and ibf_log_entry.seq set here), after a padding entry when it does not fit
 * before the area's end, overwriting the oldest entries: first it moves tail_pos past them
 * (release, then a release fence), then writes, then publishes write_pos (release). *seq (may
 * be NULL) is the entry's number. IBF_OK, IBF_ENTRY_PART_TOO_LONG, IBF_RING_BAD_ENTRY
 * (larger than the area), IBF_RING_CAPACITY,
 * or IBF_RING_POSITIONS when write_pos is not a multiple of 8 or so close to UINT64_MAX that
 * the entry would end past it. One writer.
 */
static inline int ibf_log_ring_push(void *region, size_t len, const ibf_log_entry *entry, const void *source, size_t source_len, const void *text, size_t text_len, uint64_t *seq) {
    unsigned char *base = (unsigned char *)region;
    unsigned char *area = base + 64U;
    uint64_t buf[130];
    uint64_t capacity, size, write, tail, moved, pad, end, number;
    size = (uint64_t)ibf_log_queue_build_((unsigned char *)buf, entry, source, source_len, text, text_len);
    if (ibf_log_ring_capacity_(base, len, &capacity) != IBF_OK) {
        return IBF_RING_CAPACITY;
    }
    if (size == 0) {
        return IBF_ENTRY_PART_TOO_LONG;
    }
    if (size > capacity) {
        return IBF_RING_BAD_ENTRY;
    }
    write = ibf_live_load_relaxed_u64_(base + 0);
    tail = ibf_live_load_relaxed_u64_(base + 8);
    if (write % 8U != 0) {
        return IBF_RING_POSITIONS;
    }
    moved = tail;
    if (tail > write || write - tail > capacity || tail % 8U != 0) {
        /* Not what this writer left: start the ring over from here (stored below). */
        tail = write;
    }
    pad = size > capacity - write % capacity ? capacity - write % capacity : 0;
    /* The entry's end must be a u64: no honest writer gets this close to UINT64_MAX. */
    if (pad + size > UINT64_MAX - write) {
        return IBF_RING_POSITIONS;
    }
    end = write + pad + size;
    /* Move the tail past every entry the new bytes overwrite, before writing them. */
    while (tail < write && end - tail > capacity) {
        bool padding;
        uint64_t old = ibf_log_queue_head_(area + (size_t)(tail % capacity), &padding);
        if (!ibf_log_ring_fits_(capacity, tail, old, padding, write - tail)) {
            tail = write;
            break;
        }
        tail += old;
    }
    if (end - tail > capacity) {
        tail = write + pad;
    }
    if (tail != moved) {
        ibf_live_store_release_u64_(base + 8, tail);
    }
    /* Orders the tail's store before the bytes below: a reader whose copy saw any of them
     * sees the new tail after its acquire fence, and throws the copy away. */
    ibf_live_fence_release_();
    if (pad > 0) {
        ibf_log_queue_pad_(area + (size_t)(write % capacity), pad);
    }
    number = ibf_live_load_relaxed_u64_(base + 24);
    ibf_proto_put_((unsigned char *)buf, 16U, 8U, number);
    ibf_live_write_bytes_(area + (size_t)((write + pad) % capacity), buf, (size_t)size);
    /* A count, not a position: it wraps to 0, as a reader's next_seq does. */
    ibf_live_store_relaxed_u64_(base + 24, number == UINT64_MAX ? 0U : number + 1U);
    ibf_live_store_release_u64_(base + 0, end);
    if (seq != NULL) {
        *seq = number;
    }
    return IBF_OK;
}

/**
 * Joins ring `log_ring` at the newest position: *r reads what is written from now on.
 * IBF_OK, IBF_RING_CAPACITY or IBF_RING_POSITIONS.
 */
static inline int ibf_log_ring_join_latest(ibf_log_ring_reader *r, const void *region, size_t len) {
    const unsigned char *base = (const unsigned char *)region;
    uint64_t capacity, tail;
    if (ibf_log_ring_capacity_(base, len, &capacity) != IBF_OK) {
        return IBF_RING_CAPACITY;
    }
    memset(r, 0, sizeof *r);
    r->capacity = capacity;
    r->cursor = ibf_live_load_acquire_u64_(base + 0);
    r->next_seq = ibf_live_load_acquire_u64_(base + 24);
    r->has_next_seq = true;
    tail = ibf_live_load_relaxed_u64_(base + 8);
    return tail % 8U != 0 || r->cursor % 8U != 0 ? IBF_RING_POSITIONS : IBF_OK;
}

/** Joins ring `log_ring` at the oldest whole entry still there. */
static inline int ibf_log_ring_join_oldest(ibf_log_ring_reader *r, const void *region, size_t len) {
    const unsigned char *base = (const unsigned char *)region;
    uint64_t capacity, entries, write;
    if (ibf_log_ring_capacity_(base, len, &capacity) != IBF_OK) {
        return IBF_RING_CAPACITY;
    }
    memset(r, 0, sizeof *r);
    r->capacity = capacity;
    entries = ibf_live_load_acquire_u64_(base + 24);
    write = ibf_live_load_acquire_u64_(base + 0);
    r->cursor = ibf_live_load_acquire_u64_(base + 8);
    r->has_next_seq = r->cursor == write;
    r->next_seq = entries;
    return r->cursor % 8U != 0 || write % 8U != 0 ? IBF_RING_POSITIONS : IBF_OK;
}

/* Reports a lap of `missed` entries. */
static inline int ibf_log_ring_lap_(ibf_log_ring_reader *r, uint64_t missed, uint64_t *out_missed) {
    r->laps++;
    if (out_missed != NULL) {
        *out_missed = missed;
    }
    return IBF_LAPPED;
}

/**
 * The next entry of ring `log_ring` for reader *r, copied into *out: IBF_OK,
 * IBF_EMPTY, or IBF_LAPPED with *missed (may be NULL) the entries overwritten before
 * they were read, from the seq of the first entry after them (the next call returns that
 * entry; a lap found with no entry after it yet is reported once one comes, so that the
 * entries read and missed always add up). Never a torn entry:
 * each copy is kept only if tail_pos did not pass it (acquire fence, then a re-check).
 * IBF_RING_CAPACITY, IBF_RING_POSITIONS or IBF_RING_ENTRY_SIZE for what a broken
 * writer wrote; IBF_ENTRY_PART_TOO_LONG or IBF_ENTRY_PART_PAST_ENTRY for an entry whose
 * parts cannot be right (the reader goes past it).
 */
static inline int ibf_log_ring_read_next(ibf_log_ring_reader *r, const void *region, size_t len, ibf_log_ring_record *out, uint64_t *missed) {
    const unsigned char *base = (const unsigned char *)region;
    const unsigned char *area = base + 64U;
    uint64_t buf[130];
    uint64_t capacity = r->capacity;
    uint64_t turn;
    unsigned unsettled = 0;
    if (r->has_pending) {
        r->has_pending = false;
        if (r->pending_code == IBF_OK) {
            *out = r->pending;
        }
        return r->pending_code;
    }
    if (capacity == 0 || capacity % 8U != 0 || len < 64U || capacity > (uint64_t)(len - 64U)) {
        return IBF_RING_CAPACITY;
    }
    /* Each turn moves the cursor on by at least 8 bytes, or to a newer tail. */
    for (turn = 0; turn <= 2U * capacity / 8U + 2U; turn++) {
        /* write_pos first: the tail loaded after it is no older, so an honest writer never
         * shows write - tail > capacity, and tail > write only when it wrote a whole
         * capacity between the two loads. */
        uint64_t write = ibf_live_load_acquire_u64_(base + 0);
        uint64_t tail = ibf_live_load_acquire_u64_(base + 8);
        uint64_t size, seq, expected;
        bool padding;
        if (tail % 8U != 0 || write % 8U != 0) {
            return IBF_RING_POSITIONS;
        }
        if (tail > write || write - tail > capacity || r->cursor > write) {
            /* A writer that lapped the ring between the two loads looks like this for a
             * moment; only one that keeps showing it is broken. */
            if (++unsettled < 8U) {
                ibf_live_spin_();
                continue;
            }
            return IBF_RING_POSITIONS;
        }
        unsettled = 0;
        if (r->cursor < tail) {
            r->cursor = tail;
            r->lapped = true;
            continue;
        }
        if (r->cursor == write) {
            /* A lap with no entry after it yet is reported with the first entry after it,
             * whose seq says exactly how many were missed. */
            return IBF_EMPTY;
        }
        size = ibf_log_queue_head_(area + (size_t)(r->cursor % capacity), &padding);
        if (!ibf_log_ring_fits_(capacity, r->cursor, size, padding, write - r->cursor)) {
            /* A size torn by an overwrite, or a broken writer: the re-check decides. */
            ibf_live_fence_acquire_();
            if (ibf_live_load_relaxed_u64_(base + 8) > r->cursor) {
                continue;
            }
            return IBF_RING_ENTRY_SIZE;
        }
        if (!padding) {
            ibf_live_read_bytes_(area + (size_t)(r->cursor % capacity), buf, (size_t)(size < 1040U ? size : 1040U));
        }
        /* The copy is whole only if the writer did not move the tail past it meanwhile. */
        ibf_live_fence_acquire_();
        if (ibf_live_load_relaxed_u64_(base + 8) > r->cursor) {
            continue;
        }
        r->cursor += size;
        if (padding) {
            continue;
        }
        seq = ibf_proto_get_((const unsigned char *)buf, 16U, 8U);
        expected = r->has_next_seq ? r->next_seq : seq;
        r->next_seq = seq == UINT64_MAX ? 0U : seq + 1U;
        r->has_next_seq = true;
        /* An entry older than expected is not a gap: a reader that joined while the writer
         * wrote may have taken the entries counter one entry ahead. */
        if (r->lapped || seq > expected) {
            r->lapped = false;
            r->pending_code = ibf_log_queue_parse_((const unsigned char *)buf, size, &r->pending);
            r->has_pending = true;
            return ibf_log_ring_lap_(r, seq > expected ? seq - expected : 0, missed);
        }
        return ibf_log_queue_parse_((const unsigned char *)buf, size, out);
    }
    return IBF_EMPTY;
}

/*
 * One request at a time from the client to the host, each answer matched to its request by
 * number, so a stale answer is never taken for a new one. The request area
 * (`mailbox_header.request_capacity` bytes) follows the header, then the response area
 * (`mailbox_header.response_capacity` bytes).
 * A client's command mailbox: one request at a time. The request text follows the header, then
 * the response text
 *
 * Client (the client):
 *   1. Load `mailbox_header.response_seq` (acquire). While it is not the last
 *      `mailbox_header.request_seq` sent, the last request is unanswered: do not send another.
 *   2. Check the request against `mailbox_header.request_capacity`: a request takes at most
 *      `request_capacity - 1` bytes (a NUL follows it).
 *   3. Copy the request text into the request area and store `mailbox_header.request_len`
 *      (relaxed atomic stores), then store `mailbox_header.request_seq` + 1 (release).
 *   4. Poll `mailbox_header.response_seq` (acquire) until it equals that number. Then load
 *      `mailbox_header.status`, `mailbox_header.response_len` and
 *      `mailbox_header.response_total`; check `mailbox_header.response_len` against
 *      `mailbox_header.response_capacity` and `mailbox_header.response_total` against
 *      `mailbox_header.response_len`, and copy the answer. It was cut when
 *      `mailbox_header.response_total` is more than `mailbox_header.response_len`.
 *
 * Server (the host):
 *   1. Load `mailbox_header.request_seq` (acquire). When it is not
 *      `mailbox_header.response_seq`, a request waits.
 *   2. Load `mailbox_header.request_len` and check it against `mailbox_header.request_capacity`
 *      (a broken client is answered with an error, never read past the area), and copy the
 *      request.
 *   3. Write the answer's first `mailbox_header.response_capacity` bytes into the response
 *      area, then `mailbox_header.status`, `mailbox_header.response_len` and
 *      `mailbox_header.response_total` (the whole answer's bytes).
 *   4. Store `mailbox_header.response_seq` = the `mailbox_header.request_seq` answered
 *      (release).
 */

/** An answer from mailbox `mailbox`, as the client reads it. */
typedef struct ibf_mailbox_response {
    /** The request it answers, and the server's status. */
    uint32_t seq;
    uint32_t status;
    /** The answer's bytes copied into the caller's buffer, and the whole answer's bytes. */
    uint64_t len;
    uint64_t total;
    /** The answer was cut (to the response area, or to the caller's buffer). */
    bool cut;
} ibf_mailbox_response;

/* Both capacities, checked against the region: false when they do not fit or one is 0. */
static inline bool ibf_mailbox_capacities_(const unsigned char *base, const unsigned char *laid_out, size_t len, uint64_t *request, uint64_t *response) {
    if (len < 64U) {
        return false;
    }
    *request = ibf_proto_geometry_(base, laid_out, 24, 4U);
    *response = ibf_proto_geometry_(base, laid_out, 28, 4U);
    return *request != 0 && *response != 0 && *request + *response <= (uint64_t)(len - 64U);
}

/**
 * The client's side of mailbox `mailbox`: writes the request text, its terminating NUL
 * (request_capacity counts it) and its length, then bumps request_seq (release); *seq is the request's number, which its answer will carry.
 * IBF_OK, IBF_MAILBOX_BUSY while the previous request has no answer,
 * IBF_MAILBOX_TOO_LONG past request_capacity - 1 bytes, or IBF_MAILBOX_CAPACITY. * Bound to no claim: it keeps requesting after the row was freed, into the next client's
 * mailbox; for a host, a test or a tool. A client requests with ibf_mailbox_request
 * (its claim first). */
static inline int ibf_mailbox_request_unscoped(void *region, size_t len, const void *text, size_t text_len, uint32_t *seq) {
    unsigned char *base = (unsigned char *)region;
    uint64_t request, response;
    uint32_t current;
    if (!ibf_mailbox_capacities_(base, NULL, len, &request, &response)) {
        return IBF_MAILBOX_CAPACITY;
    }
    current = ibf_live_load_relaxed_u32_(base + 0);
    if (ibf_live_load_acquire_u32_(base + 8) != current) {
        return IBF_MAILBOX_BUSY;
    }
    if ((uint64_t)text_len > request - 1U) {
        return IBF_MAILBOX_TOO_LONG;
    }
    ibf_live_write_bytes_(base + 64U, text, text_len);
    ibf_live_write_bytes_(base + 64U + text_len, "", 1U);
    ibf_live_store_relaxed_u32_(base + 4, (uint32_t)text_len);
    current += 1U;
    ibf_live_store_release_u32_(base + 0, current);
    *seq = current;
    return IBF_OK;
}

/**
 * The client's side: the answer to request `seq` into *out and its text into `text` (at
 * most text_cap bytes): IBF_OK, IBF_PENDING while it has none, IBF_MAILBOX_LENGTH
 * when response_len passes the response area, or IBF_MAILBOX_CAPACITY.
 */
static inline int ibf_mailbox_poll_response(const void *region, size_t len, uint32_t seq, ibf_mailbox_response *out, void *text, size_t text_cap) {
    const unsigned char *base = (const unsigned char *)region;
    uint64_t request, response, n, copied, total;
    if (!ibf_mailbox_capacities_(base, NULL, len, &request, &response)) {
        return IBF_MAILBOX_CAPACITY;
    }
    if (ibf_live_load_acquire_u32_(base + 8) != seq) {
        return IBF_PENDING;
    }
    n = ibf_live_load_acquire_u32_(base + 16);
    if (n > response) {
        return IBF_MAILBOX_LENGTH;
    }
    copied = n < (uint64_t)text_cap ? n : (uint64_t)text_cap;
    ibf_live_read_bytes_(base + 64U + (size_t)request, text, (size_t)copied);
    total = ibf_live_load_acquire_u32_(base + 20);
    out->seq = seq;
    out->status = ibf_live_load_acquire_u32_(base + 12);
    out->len = copied;
    out->total = total > n ? total : n;
    out->cut = out->total > copied;
    return IBF_OK;
}

/**
 * The server's side, first half: when a request waits, copies its text into `request` (at
 * most request_cap bytes; *request_len the bytes copied, followed by a NUL when request_cap
 * has room for it) and *seq its number: IBF_OK, then answer it with
 * ibf_mailbox_serve_answer. The copy ends where request_len says, never at a NUL the
 * client may have left out. IBF_PENDING when none waits; IBF_MAILBOX_CAPACITY for a
 * broken client; IBF_MAILBOX_SEQUENCE for a hostile request_seq (not one past
 * response_seq), with *seq set to it: no answer can match it, so the host's policy frees the
 * row, whose free answers it; IBF_MAILBOX_LENGTH when request_len is past the area, with
 * *seq set, so the host can answer that request with an error status.
 */
static inline int ibf_mailbox_serve_begin_laid_out(const void *region, size_t len, const unsigned char *laid_out, void *request, size_t request_cap, size_t *request_len, uint32_t *seq) {
    const unsigned char *base = (const unsigned char *)region;
    uint64_t request_capacity, response_capacity, n;
    uint32_t asked, answered;
    if (!ibf_mailbox_capacities_(base, laid_out, len, &request_capacity, &response_capacity)) {
        return IBF_MAILBOX_CAPACITY;
    }
    asked = ibf_live_load_acquire_u32_(base + 0);
    answered = ibf_live_load_relaxed_u32_(base + 8);
    if (asked == answered) {
        return IBF_PENDING;
    }
    *seq = asked;
    if (asked != answered + 1U) {
        return IBF_MAILBOX_SEQUENCE;
    }
    n = ibf_live_load_relaxed_u32_(base + 4);
    if (n >= request_capacity) {
        return IBF_MAILBOX_LENGTH;
    }
    if (n > (uint64_t)request_cap) {
        n = (uint64_t)request_cap;
    }
    ibf_live_read_bytes_(base + 64U, request, (size_t)n);
    if (n < (uint64_t)request_cap) {
        ((unsigned char *)request)[n] = 0U;
    }
    *request_len = (size_t)n;
    return IBF_OK;
}

/** ibf_mailbox_serve_begin_laid_out with the capacities the mapping's header holds (a side that
 * attached: the host wrote them). */
static inline int ibf_mailbox_serve_begin(const void *region, size_t len, void *request, size_t request_cap, size_t *request_len, uint32_t *seq) {
    return ibf_mailbox_serve_begin_laid_out(region, len, NULL, request, request_cap, request_len, seq);
}

/**
 * The server's side, second half: answers request `seq` (from serve_begin) with `status` and
 * the whole answer's text, cut to the response area; stores response_seq = seq (release).
 * IBF_OK, IBF_MAILBOX_SEQUENCE when `seq` is not the request waiting, or
 * IBF_MAILBOX_CAPACITY.
 */
static inline int ibf_mailbox_serve_answer_laid_out(void *region, size_t len, const unsigned char *laid_out, uint32_t seq, uint32_t status, const void *text, size_t text_len) {
    unsigned char *base = (unsigned char *)region;
    uint64_t request, response, kept;
    uint64_t total = (uint64_t)text_len;
    if (!ibf_mailbox_capacities_(base, laid_out, len, &request, &response)) {
        return IBF_MAILBOX_CAPACITY;
    }
    if (ibf_live_load_acquire_u32_(base + 0) != seq || ibf_live_load_relaxed_u32_(base + 8) + 1U != seq) {
        return IBF_MAILBOX_SEQUENCE;
    }
    kept = total < response ? total : response;
    ibf_live_write_bytes_(base + 64U + (size_t)request, text, (size_t)kept);
    ibf_live_store_relaxed_u32_(base + 12, status);
    ibf_live_store_relaxed_u32_(base + 16, (uint32_t)kept);
    ibf_live_store_relaxed_u32_(base + 20, total > 0xffffffffULL ? 0xffffffffU : (uint32_t)total);
    ibf_live_store_release_u32_(base + 8, seq);
    return IBF_OK;
}

/** ibf_mailbox_serve_answer_laid_out with the capacities the mapping's header holds (a side that
 * attached: the host wrote them). */
static inline int ibf_mailbox_serve_answer(void *region, size_t len, uint32_t seq, uint32_t status, const void *text, size_t text_len) {
    return ibf_mailbox_serve_answer_laid_out(region, len, NULL, seq, status, text, text_len);
}

/*
 * A triple buffer of whole lists from the client to the host: `draw_header.buffers`
 * `draw_list_header` lists, `draw_header.buffer_size` bytes apart after the header, each
 * followed by `draw_header.max_commands` `draw_cmd` and `draw_header.max_payload` payload
 * bytes. `draw_header.state` holds the shared list's index (bits 0-1) and a fresh bit (bit 2);
 * both sides swap it whole, so neither ever sees a list the other is writing or reading. Before
 * the first publication (a new claim, or a host's reload) `draw_header.state` is 1 (list 1
 * shared, not fresh): the writer starts with list 0, the reader with list 2. Each side keeps
 * its own index to itself.
 * A client's draw lists, a triple buffer: the client's list, the shared one and the host's.
 * Before the first publication (a new claim of the row, or a host's reload) state is 1: the
 * client starts with list 0 and the host with list 2
 *
 * Writer (the client):
 *   1. Check `draw_header.buffers` (3), `draw_header.buffer_size` and the capacities against
 *      the bytes the region holds before writing a list.
 *   2. Fill its own list: items up to `draw_header.max_commands`, payload up to
 *      `draw_header.max_payload`; what does not fit is dropped, counted in
 *      `draw_list_header.dropped` and flagged `overflow` in `draw_list_header.flags`. Store
 *      `draw_list_header.count` and `draw_list_header.payload_len`.
 *   3. Swap `draw_header.state` with its own index | fresh (acquire-release): its own list is
 *      now the one the old state named. If the old state was fresh, the reader never took that
 *      list: it was overwritten.
 *   4. A state naming its own list is refused, but one: not fresh, after a publication of its
 *      own. The reader gave back the list the writer fills (a publication a free overtook made
 *      both hold it) and holds the list published last: publish in place (its own index |
 *      fresh) and take the third list.
 *   5. Add 1 to `draw_header.published` (release).
 *
 * Reader (the host):
 *   1. Load `draw_header.state` (acquire). If the fresh bit is clear, nothing new was
 *      published: keep the list it holds.
 *   2. Otherwise swap `draw_header.state` with its own index, not fresh (acquire-release): its
 *      own list is the one the old state named, the newest published.
 *   3. A fresh state that names its own list is a publication a free overtook (a writer of the
 *      row's last session): no correct writer publishes the reader's list. A reader absorbs 1
 *      such publication (a new reader for each session): it shows nothing of it, and waits.
 *      When the state next names another list fresh, the writer owns the one the stale
 *      publication named: take the fresh list and give back the third list, the one nobody owns
 *      (not fresh). A state not fresh while it waits is the stale publication taken back by its
 *      writer (stop waiting), unless it names the reader's own list. Past that grace, or that
 *      own list, the state is a broken writer's: refuse it (`exchange_state`), and the host
 *      frees the row.
 *   4. Check `draw_list_header.count` against `draw_header.max_commands` and
 *      `draw_list_header.payload_len` against `draw_header.max_payload` before reading the
 *      items and payload.
 */

/** The fresh bit of exchange `draw`'s state word. */
#define IBF_DRAW_FRESH 4U
/** Its state word before the first publication: list 1 shared, not fresh. */
#define IBF_DRAW_INITIAL_STATE 1U
/** Publications of the reader's own list one reader absorbs (a publication a free overtook:
 * never shown; the writer's next is taken, giving back the list nobody owns) before it refuses
 * the state as a broken writer's (_take). */
#define IBF_DRAW_STALE_GRACE 1U

/**
 * The writer of exchange `draw`: the list it owns, and the list it builds between
 * ibf_draw_begin and _publish. The payload of the next item goes at payload_len,
 * the offset to put in the item.
 */
typedef struct ibf_draw_writer {
    uint32_t own;
    /* 1 + the list it published last (the reader's once taken), 0 before its first. */
    uint32_t last;
    unsigned char *list;
    uint64_t max_items;
    uint64_t max_payload;
    uint32_t count;
    uint32_t payload_len;
    uint32_t dropped;
} ibf_draw_writer;

/** The reader of exchange `draw`: the list it owns, and what the last take found;
 * `stale` is 1 + the list a stale publication named while the reader waits for the writer's
 * next (0 otherwise), `absorbed` the stale publications it absorbed (at most
 * IBF_DRAW_STALE_GRACE). */
typedef struct ibf_draw_reader {
    uint32_t own;
    uint32_t stale;
    uint32_t absorbed;
    const unsigned char *list;
    uint64_t max_items;
    uint32_t count;
    uint32_t payload_len;
} ibf_draw_reader;

/* List `index` of the exchange in the `len` bytes at `base`, its geometry checked (three
 * lists, each holding its header, max_items items and max_payload bytes, inside the region,
 * each at its header's alignment): NULL when it does not fit. */
static inline unsigned char *ibf_draw_list_(const unsigned char *base, const unsigned char *laid_out, size_t len, uint32_t index, uint64_t *max_items, uint64_t *max_payload) {
    uint64_t buffers, size, need;
    if (len < 64U || index > 2U) {
        return NULL;
    }
    buffers = ibf_proto_geometry_(base, laid_out, 4, 4U);
    size = ibf_proto_geometry_(base, laid_out, 8, 4U);
    *max_items = ibf_proto_geometry_(base, laid_out, 12, 4U);
    *max_payload = ibf_proto_geometry_(base, laid_out, 16, 4U);
    if (buffers != 3U || *max_items > 0xffffffffULL || *max_payload > 0xffffffffULL) {
        return NULL;
    }
    need = 64U + *max_items * 36U + *max_payload;
    if (size < need || size > (uint64_t)(len - 64U) / 3U || size % 8U != 0 || 64U % 8U != 0) {
        return NULL;
    }
    return (unsigned char *)(uintptr_t)(base + 64U + (size_t)(index * size));
}

/* Checks a state word: the shared list's index (0 to 2) and the fresh bit, nothing else. */
static inline bool ibf_draw_state_ok_(uint32_t state) {
    return (state & 3U) <= 2U && (state & ~7U) == 0;
}

/** The writer at the start (it owns list 0). */
static inline void ibf_draw_writer_init(ibf_draw_writer *w) {
    memset(w, 0, sizeof *w);
    w->own = 0U;
}

/** The reader at the start (it owns list 2). */
static inline void ibf_draw_reader_init(ibf_draw_reader *r) {
    memset(r, 0, sizeof *r);
    r->own = 2U;
}

/** The host's side: the state word back to its start (a new claim of the row, a reload). */
static inline void ibf_draw_reset(void *region, size_t len) {
    if (len >= 0U + 4U) {
        ibf_live_store_release_u32_((unsigned char *)region + 0, 1U);
    }
}

/**
 * Starts a new list in the writer's own list of exchange `draw` (the `len` bytes at
 * `region`): IBF_OK, or IBF_EXCHANGE_GEOMETRY when the header's lists do not fit.
 */
static inline int ibf_draw_begin(ibf_draw_writer *w, void *region, size_t len) {
    w->list = ibf_draw_list_((const unsigned char *)region, NULL, len, w->own, &w->max_items, &w->max_payload);
    w->count = 0;
    w->payload_len = 0;
    w->dropped = 0;
    return w->list != NULL ? IBF_OK : IBF_EXCHANGE_GEOMETRY;
}

/**
 * Adds *item and its `n` payload bytes (at payload_len, the offset the item should name) to
 * the list begun: IBF_OK; or IBF_DROPPED when the item or its payload does not fit
 * (counted in dropped, nothing written); IBF_EXCHANGE_GEOMETRY before _begin. * Bound to no claim (for a host, a test or a tool); a client adds with ibf_draw_add. */
static inline int ibf_draw_add_unscoped(ibf_draw_writer *w, const ibf_draw_cmd *item, const void *payload, size_t n) {
    if (w->list == NULL) {
        return IBF_EXCHANGE_GEOMETRY;
    }
    if ((uint64_t)w->count >= w->max_items || (uint64_t)n > w->max_payload - w->payload_len || (payload == NULL && n != 0)) {
        w->dropped++;
        return IBF_DROPPED;
    }
    if (n != 0) {
        ibf_live_write_bytes_(w->list + 64U + (size_t)(w->max_items * 36U) + w->payload_len, payload, n);
    }
    ibf_live_write_bytes_(w->list + 64U + (size_t)w->count * 36U, item, 36U);
    w->count++;
    w->payload_len += (uint32_t)n;
    return IBF_OK;
}

/**
 * Publishes the list begun: its header *head with the count, payload length and dropped count
 * set here (and the overflow flag when an item was dropped; the other flags are the caller's),
 * then the state word swapped (compare-and-swap, acquire-release) with
 * the writer's list, fresh; the writer owns the list the state named. *overwrote (may be NULL)
 * says the reader never took the previous list. Then published + 1 (release).
 * IBF_OK; IBF_EXCHANGE_STATE (nothing changed) for a state the reader cannot have left,
 * IBF_EXCHANGE_CONTENDED (nothing changed) when it changed under every try (the list is
 * kept: publish again); IBF_EXCHANGE_GEOMETRY before _begin. Never blocks.
 * A state naming the writer's own list, not fresh, after a publication of its own is a list
 * the reader gave back while this writer fills it (a publication a free overtook made both
 * hold it): the reader holds the list published last, so the list is published in place and
 * the writer takes the third. While a stale publication names the list it fills (fresh), the
 * publication is refused (IBF_EXCHANGE_STATE): publish again after the host's take. * Bound to no claim (for a host, a test or a tool); a client publishes with
 * ibf_draw_publish. */
static inline int ibf_draw_publish_unscoped(ibf_draw_writer *w, void *region, size_t len, const ibf_draw_list_header *head, bool *overwrote) {
    unsigned char *base = (unsigned char *)region;
    ibf_draw_list_header list = *head;
    uint32_t current, tries, next;
    if (w->list == NULL || len < 64U) {
        return IBF_EXCHANGE_GEOMETRY;
    }
    list.count = (uint32_t)w->count;
    list.payload_len = (uint32_t)w->payload_len;
    list.dropped = (uint32_t)w->dropped;
    if (w->dropped > 0) {
        list.flags = (ibf_draw_list_flags)(list.flags | 1U);
    }
    ibf_live_write_bytes_(w->list, &list, 64U);
    current = ibf_live_load_acquire_u32_(base + 0);
    for (tries = 0;; tries++) {
        if (!ibf_draw_state_ok_(current)) {
            return IBF_EXCHANGE_STATE;
        }
        if ((current & 3U) != w->own) {
            next = current & 3U;
        } else if ((current & 4U) == 0 && w->last != 0U && w->last - 1U != w->own) {
            /* The reader gave back the list this writer fills (a stale publication made both
             * hold it) and holds the one it published last: publish in place, take the third. */
            next = 3U - w->own - (w->last - 1U);
        } else {
            return IBF_EXCHANGE_STATE;
        }
        if (tries == IBF_EXCHANGE_TRIES) {
            return IBF_EXCHANGE_CONTENDED;
        }
        /* Fails only when the reader took the shared list meanwhile. */
        if (ibf_live_cas_u32_(base + 0, &current, w->own | 4U)) {
            break;
        }
        ibf_live_spin_();
    }
    if (overwrote != NULL) {
        *overwrote = (current & 4U) != 0;
    }
    w->last = w->own + 1U;
    w->own = next;
    w->list = NULL;
    (void)ibf_live_fetch_add_u32_(base + 20, 1U);
    return IBF_OK;
}

/**
 * The reader's side: takes the shared list when it is fresh (its own goes back, not fresh;
 * compare-and-swap, acquire-release) and copies its header into *head, its count and payload
 * length checked against the capacities: IBF_OK; IBF_EMPTY when nothing new was
 * published; IBF_EXCHANGE_STATE or IBF_EXCHANGE_CONTENDED (nothing changed),
 * IBF_EXCHANGE_GEOMETRY or IBF_EXCHANGE_LIST_LENGTH for what a broken peer wrote. Then
 * _item and _payload read the list.
 * A fresh state naming the reader's own list is a publication a free overtook: the first
 * IBF_DRAW_STALE_GRACE of them are absorbed (IBF_EMPTY, nothing shown) and
 * the reader waits; the writer's next publication is taken giving back the list nobody owns.
 * Past the grace, or its own list shared and not fresh while it waits, is
 * IBF_EXCHANGE_STATE: a broken writer (the host frees the row, then takes a new reader).
 * Another list shared and not fresh while it waits is the stale publication taken back.
 */
static inline int ibf_draw_take_laid_out(ibf_draw_reader *r, void *region, size_t len, const unsigned char *laid_out, ibf_draw_list_header *head) {
    unsigned char *base = (unsigned char *)region;
    uint64_t max_payload;
    uint32_t current, tries, give;
    r->list = NULL;
    if (len < 64U) {
        return IBF_EXCHANGE_GEOMETRY;
    }
    current = ibf_live_load_acquire_u32_(base + 0);
    for (tries = 0;; tries++) {
        if (!ibf_draw_state_ok_(current)) {
            return IBF_EXCHANGE_STATE;
        }
        if (r->stale != 0U) {
            /* Waiting after a stale publication: the writer owns the list it named. */
            if ((current & 4U) == 0) {
                /* Taken back by the stale writer (the lists one each again), or broken. */
                if ((current & 3U) == r->stale - 1U) {
                    return IBF_EXCHANGE_STATE;
                }
                r->stale = 0U;
                return IBF_EMPTY;
            }
            if ((current & 3U) == r->stale - 1U) {
                return IBF_EMPTY;
            }
            give = 3U - (r->stale - 1U) - (current & 3U);
        } else if ((current & 4U) == 0) {
            return IBF_EMPTY;
        } else if ((current & 3U) == r->own) {
            if (r->absorbed < IBF_DRAW_STALE_GRACE) {
                r->absorbed++;
                r->stale = r->own + 1U;
                return IBF_EMPTY;
            }
            return IBF_EXCHANGE_STATE;
        } else {
            give = r->own;
        }
        if (tries == IBF_EXCHANGE_TRIES) {
            return IBF_EXCHANGE_CONTENDED;
        }
        /* Fails only when the writer published again meanwhile: take that one. */
        if (ibf_live_cas_u32_(base + 0, &current, give)) {
            break;
        }
        ibf_live_spin_();
    }
    r->stale = 0U;
    r->own = current & 3U;
    r->list = ibf_draw_list_(base, laid_out, len, r->own, &r->max_items, &max_payload);
    if (r->list == NULL) {
        return IBF_EXCHANGE_GEOMETRY;
    }
    ibf_live_read_bytes_(r->list, head, 64U);
    if ((uint64_t)head->count > r->max_items || (uint64_t)head->payload_len > max_payload) {
        r->list = NULL;
        return IBF_EXCHANGE_LIST_LENGTH;
    }
    r->count = (uint32_t)head->count;
    r->payload_len = (uint32_t)head->payload_len;
    return IBF_OK;
}

/** ibf_draw_take_laid_out with the geometry the mapping's header holds (a side that
 * attached: the host wrote it). */
static inline int ibf_draw_take(ibf_draw_reader *r, void *region, size_t len, ibf_draw_list_header *head) {
    return ibf_draw_take_laid_out(r, region, len, NULL, head);
}

/** Item `index` of the list taken, into *out: IBF_OK or IBF_EXCHANGE_LIST_LENGTH past its
 * count. */
static inline int ibf_draw_item(const ibf_draw_reader *r, uint32_t index, ibf_draw_cmd *out) {
    if (r->list == NULL || index >= r->count) {
        return IBF_EXCHANGE_LIST_LENGTH;
    }
    ibf_live_read_bytes_(r->list + 64U + (size_t)index * 36U, out, 36U);
    return IBF_OK;
}

/** `n` payload bytes from `offset` of the list taken, into `out`: IBF_OK or
 * IBF_EXCHANGE_LIST_LENGTH past its payload length. */
static inline int ibf_draw_payload(const ibf_draw_reader *r, uint64_t offset, uint64_t n, void *out) {
    if (r->list == NULL || offset > r->payload_len || n > r->payload_len - offset) {
        return IBF_EXCHANGE_LIST_LENGTH;
    }
    ibf_live_read_bytes_(r->list + 64U + (size_t)(r->max_items * 36U) + (size_t)offset, out, (size_t)n);
    return IBF_OK;
}

/*
 * The lifecycle of a row of `bridge_header.clients`: the client claims a `free` row, fills it
 * in and keeps it while the row holds its generation; the host frees it. A row in use whose
 * state, generation and heartbeat have not changed for 1000 ms of the host's clock counts as
 * hung.
 * A client's row: claimed by compare-and-swap from free with a generation bump, filled in, then
 * active; a heartbeat at least every 100 ms; gone when the row no longer holds its generation,
 * when the host reloads (host_generation changes) or exits; closing to say goodbye
 *
 * Client (the client):
 *   1. Claim, through a handle attached at host generation G: where `client_entry.state` and
 *      `client_entry.generation` share one 8-byte word, compare-and-swap that word from
 *      (`free`, g) to (`claimed`, g + 1) (acquire-release); otherwise compare-and-swap
 *      `client_entry.state` from `free` to `claimed`, then add 1 to `client_entry.generation`.
 *      Keep the new generation: the row's generation is the claim's. On failure try the next
 *      row.
 *   2. After the claim, load `bridge_header.host_state` and `bridge_header.host_generation`
 *      (acquire): when the host is exiting, or `bridge_header.host_generation` is not G, give
 *      the row back (compare-and-swap from `claimed` back to `free`, the generation kept) and
 *      attach again; if the host freed it first, the claim stands and its next check says why.
 *   3. Fill in the row's other fields (relaxed atomic stores).
 *   4. Activate: load `bridge_header.host_generation` (acquire) and do nothing when it is not
 *      G; then compare-and-swap the state from `claimed` to `active` (release) while
 *      `client_entry.generation` is the claim's: where the state and the generation share one
 *      8-byte word, one compare-and-swap of that word checks both. The give-back and Close
 *      check `bridge_header.host_generation` first the same way.
 *   5. Store `client_entry.heartbeat_ns` = a monotonic clock in ns (release), only while the
 *      standing (below) is connected, at least every 100 ms: a value that changes (the host
 *      only compares it with its last). Store `client_entry.waiting` = 1 (release) before
 *      sleeping on the tick event, then a full (SeqCst) fence, then load what the host
 *      publishes and sleep only when it is not new; store 0 after.
 *   6. Before each use, and at each heartbeat: load `client_entry.state` and
 *      `client_entry.generation` (acquire; one load where they share a word), then
 *      `bridge_header.host_state` and `bridge_header.host_generation` (acquire). When
 *      `bridge_header.host_state` is `exiting`, the host is going away; when
 *      `bridge_header.host_generation` is not G, the host reloaded and freed every row: attach
 *      again. Otherwise, if the state is not `claimed` or `active`, or the generation is not
 *      the claim's, the row was freed or taken: disconnected, claim again.
 *   7. Before each write to the blocks the row owns, check the standing as above and write
 *      nothing once the row is not the claim's; after a publication, check again and take it
 *      back (compare-and-swap of the state word to what it was) when a free overtook it. The
 *      window left is one write.
 *   8. Close: compare-and-swap the state from `active` (or `claimed`) to `closing` (release),
 *      only while the generation is the claim's.
 *   9. Bind a pad, while the claim stands: compare-and-swap its byte of
 *      `bridge_header.pad_owner` from 255 (free) to the row's index, as a compare-and-swap of
 *      the whole word holding it; then a full (seq_cst) fence and the standing again, and when
 *      the claim no longer stands, swap it back (the host's free fences between its retire and
 *      its sweep of the pads, so one side always sees the other). Unbind, while the claim
 *      stands, by swapping it back. The byte holds only the row's index: a stale client's undo
 *      or unbind can still unbind the same pad if the row's next client bound it in between.
 *
 * Host (the host):
 *   1. Free a row after a `closing`, or when it is hung: the host keeps, for each row, the
 *      `client_entry.state`, `client_entry.generation` and `client_entry.heartbeat_ns` it last
 *      loaded and the time of its own monotonic clock when it first saw them so; a `claimed` or
 *      `active` row whose three have not changed for more than 1000 ms is hung (a row first
 *      seen in use gets that long, heartbeat or not; one stuck in `claimed` is hung too;
 *      `client_entry.heartbeat_ns` is only compared with itself, never with the host's clock).
 *      Retire it (swap `client_entry.state` to `closing`, acquire-release: its client sees it
 *      gone and nobody can claim it), then a full (seq_cst) fence, let go of every pad the
 *      row's index owns in `bridge_header.pad_owner` (back to 255), when it was not free put
 *      back what the row (row i) owned in its blocks (store the 24 words the host alone writes
 *      in the headers of `client_blocks[i]` back from its own image; answer the request waiting
 *      in `client_blocks[i].mailbox` with status 0 and no text; store the 26 words the host
 *      alone writes in the headers of `bot_blocks[i]` back from its own image; store
 *      `bot_blocks[i].draw`'s state = 1, its initial state; a queue keeps its entries for the
 *      host to drain), then store `client_entry.state` = `free` (release). The client notices
 *      at its next check; the next claim finds nothing of the last client's.
 *   2. To wake a sleeping client: after publishing, a full (SeqCst) fence, then load
 *      `client_entry.waiting` (acquire); wake it when 1.
 *   3. On a reload, add 1 to `bridge_header.host_generation` (acquire-release) first, then free
 *      every row as above, each row also after a free that gave up (a word the client shares
 *      kept changing); then report the rows freed and, as an error, the rows not. A new image
 *      produced over the mapping takes a generation past the mapping's, and so does each row's
 *      `client_entry.generation` (the image's when greater, else the mapping's + 1), written
 *      with one store of its word. Before exiting, store `bridge_header.host_state` = `exiting`
 *      (release).
 */

/** How many times _claim retries its compare-and-swap while the row stays free. */
#define IBF_CLIENT_CLAIM_TRIES 16U

/** A client's claim of a row of session `client`: the row, the generation the claim
 * gave it, and the host's generation when it claimed. */
typedef struct ibf_client_session {
    uint32_t row;
    uint32_t generation;
    uint32_t host_generation;
} ibf_client_session;

/* Row `row` of the table in the `len` bytes at `base` (ibf_bridge_header's start), or NULL
 * when it is past the table or the region does not hold it and the host's fields. */
static inline unsigned char *ibf_client_row_(const void *region, size_t len, uint32_t row) {
    const unsigned char *base = (const unsigned char *)region;
    if (row >= 8U || (uint64_t)len < 256U + ((uint64_t)row + 1U) * 128U
        || len < 20U + 4U || len < 24U + 4U) {
        return NULL;
    }
    return (unsigned char *)(uintptr_t)(base + 256U + (size_t)row * 128U);
}

/* The 8-byte word the row's state and generation share (at 0 in the row; the state is
 * its low half): the session helpers access it with this one size only. */
static inline uint64_t ibf_client_join_(uint32_t state, uint32_t generation) {
    return (uint64_t)state | (uint64_t)generation << 32;
}
static inline uint32_t ibf_client_state_of_(uint64_t word) {
    return (uint32_t)(word);
}
static inline uint32_t ibf_client_generation_of_(uint64_t word) {
    return (uint32_t)(word >> 32);
}

/* The row's state and generation (acquire): one load of their word. */
static inline void ibf_client_row_word_(const unsigned char *row, uint32_t *state, uint32_t *generation) {
    uint64_t word = ibf_live_load_acquire_u64_(row + 0);
    *state = ibf_client_state_of_(word);
    *generation = ibf_client_generation_of_(word);
}

/**
 * Whether the claim *c still holds its row: IBF_OK; IBF_HOST_EXITING; IBF_RELOADED
 * when the host's generation changed (the host freed every row); IBF_DISCONNECTED when the
 * row was freed or another client claimed it since (acquire loads); IBF_SESSION_ROW.
 */
static inline int ibf_client_standing(const void *region, size_t len, const ibf_client_session *c) {
    const unsigned char *base = (const unsigned char *)region;
    unsigned char *row = ibf_client_row_(region, len, c->row);
    uint32_t state, generation;
    if (row == NULL) {
        return IBF_SESSION_ROW;
    }
    ibf_client_row_word_(row, &state, &generation);
    if (ibf_live_load_acquire_u32_(base + 24) == 2U) {
        return IBF_HOST_EXITING;
    }
    if (ibf_live_load_acquire_u32_(base + 20) != c->host_generation) {
        return IBF_RELOADED;
    }
    if ((state != 1U && state != 2U) || generation != c->generation) {
        return IBF_DISCONNECTED;
    }
    return IBF_OK;
}

/* From state `from` to `to`, only while the host's generation (`base`: the table's header) is
 * still `host_generation` and the row's is the claim's; whether it moved. The host's generation
 * is checked first (a move of a claim the host reloaded past is refused without touching the
 * row); the rest of the window is closed by the row generations a re-layout carries forward. */
static inline bool ibf_client_move_(const unsigned char *base, unsigned char *row, uint32_t host_generation, uint32_t generation, uint32_t from, uint32_t to) {
    if (ibf_live_load_acquire_u32_(base + 20) != host_generation) {
        return false;
    }
    /* One compare-and-swap of the shared word checks both. */
    uint64_t expected = ibf_client_join_(from, generation);
    return ibf_live_cas_u64_(row + 0, &expected, ibf_client_join_(to, generation));
}

/**
 * Claims row `row` of session `client` if it is free, for a client that attached at host
 * generation `attached` (the attached handle's generation): one compare-and-swap of the
 * 8-byte word the row's state and generation share, from (free, g) to (claimed, g + 1). Then the host's
 * state and generation are loaded (acquire, after the claim: a row a reload freed shows the
 * reload's generation); when the host is exiting or its generation is no longer `attached`,
 * the row is given back and the claim refused (when the host freed the claimed row before
 * it could be given back, the claim is made, and its standing says what took it).
 * IBF_OK with *out the claim;
 * IBF_NOT_FREE when another client holds it or won the race; IBF_RELOADED (attach
 * again) or IBF_HOST_EXITING; IBF_SESSION_ROW. Then _fill and _activate.
 */
static inline int ibf_client_claim(void *region, size_t len, uint32_t attached, uint32_t row, ibf_client_session *out) {
    unsigned char *at = ibf_client_row_(region, len, row);
    const unsigned char *base = (const unsigned char *)region;
    uint32_t generation;
    uint32_t now;
    int refused = IBF_OK;
    if (at == NULL) {
        return IBF_SESSION_ROW;
    }
    {
        uint32_t tries;
        uint64_t found = ibf_live_load_acquire_u64_(at + 0);
        for (tries = 0;; tries++) {
            generation = ibf_client_generation_of_(found) + 1U;
            if (ibf_client_state_of_(found) != 0U || tries == IBF_CLIENT_CLAIM_TRIES) {
                return IBF_NOT_FREE;
            }
            if (ibf_live_cas_u64_(at + 0, &found, ibf_client_join_(1U, generation))) {
                break;
            }
        }
    }
    now = ibf_live_load_acquire_u32_(base + 20);
    if (ibf_live_load_acquire_u32_(base + 24) == 2U) {
        refused = IBF_HOST_EXITING;
    } else if (now != attached) {
        refused = IBF_RELOADED;
    }
    /* Given back unused, while the host's generation is still the one loaded after the claim;
     * when the host freed the claimed row first (its reload or exit did), the claim happened,
     * and its standing says what took it. */
    if (refused != IBF_OK && ibf_client_move_(base, at, now, generation, 1U, 0U)) {
        return refused;
    }
    out->row = row;
    out->generation = generation;
    out->host_generation = attached;
    return IBF_OK;
}

/**
 * Fills in the claimed row's other fields from *values (every field but the state and the
 * generation; relaxed atomic stores, each field with its own width), while the claim holds:
 * the standing before it.
 */
static inline int ibf_client_fill(void *region, size_t len, const ibf_client_session *c, const ibf_client_entry *values) {
    int standing = ibf_client_standing(region, len, c);
    unsigned char *row = ibf_client_row_(region, len, c->row);
    if (standing != IBF_OK || row == NULL) {
        return standing;
    }
    {
        /* Each field: its offset, its bytes, and its width in bits (0: by its bytes). */
        static const uint32_t fields[][3] = {
            {8U, 4U, 32U},
            {12U, 4U, 32U},
            {16U, 8U, 64U},
            {24U, 8U, 64U},
            {32U, 1U, 8U},
            {33U, 3U, 0U},
            {36U, 4U, 32U},
            {40U, 32U, 0U},
            {72U, 56U, 0U},
        };
        size_t i;
        for (i = 0; i < sizeof fields / sizeof fields[0]; i++) {
            ibf_live_write_field_(row + fields[i][0], (const unsigned char *)values + fields[i][0], fields[i][1], fields[i][2]);
        }
    }
    return IBF_OK;
}

/** Marks the claimed row active (release), only while the claim holds (the host's generation
 * is still the claim's, then the row's word): IBF_OK, or its standing (nothing stored). */
static inline int ibf_client_activate(void *region, size_t len, const ibf_client_session *c) {
    unsigned char *row = ibf_client_row_(region, len, c->row);
    if (row == NULL) {
        return IBF_SESSION_ROW;
    }
    if (ibf_client_move_((const unsigned char *)region, row, c->host_generation, c->generation, 1U, 2U)) {
        return IBF_OK;
    }
    return ibf_client_standing(region, len, c);
}

/** Stores the heartbeat (the host clock, release; at least every 100 ms), then
 * returns the claim's standing. */
static inline int ibf_client_heartbeat(void *region, size_t len, const ibf_client_session *c, uint64_t now_ns) {
    int standing = ibf_client_standing(region, len, c);
    unsigned char *row = ibf_client_row_(region, len, c->row);
    if (standing == IBF_OK && row != NULL) {
        ibf_live_store_release_u64_(row + 16, (uint64_t)now_ns);
    }
    return standing;
}

/** Stores the waiting flag (release), then a full (seq_cst) fence: 1 before sleeping on the
 * tick event, 0 after. After storing 1, load what the host publishes and
 * sleep only when it is not new: the fence keeps that load after the store, and the host's
 * ibf_client_host_waiting keeps its own load after its publication, so one of the two
 * always sees the other (a store-then-load handshake on each side: Dekker's pattern, which
 * release and acquire alone do not order). Stores only while the row is still this claim's,
 * as the heartbeat: a client that lost its row never writes the next client's flag (which
 * would hide that client's sleep from the host). Returns the claim's standing (IBF_OK:
 * stored). */
static inline int ibf_client_set_waiting(void *region, size_t len, const ibf_client_session *c, uint32_t waiting) {
    int standing = ibf_client_standing(region, len, c);
    unsigned char *row = ibf_client_row_(region, len, c->row);
    if (row == NULL) {
        return IBF_SESSION_ROW;
    }
    if (standing != IBF_OK) {
        return standing;
    }
    ibf_live_store_release_u32_(row + 36, waiting);
    ibf_live_fence_seq_cst_();
    return IBF_OK;
}

/** The host's side of the waiting handshake: after it published (stored what the client loads),
 * a full (seq_cst) fence, then row `row`'s waiting flag (acquire): true when its client sleeps
 * on the tick event and must be woken. False for a row past the table. */
static inline bool ibf_client_host_waiting(const void *region, size_t len, uint32_t row) {
    const unsigned char *at = ibf_client_row_(region, len, row);
    if (at == NULL) {
        return false;
    }
    ibf_live_fence_seq_cst_();
    return ibf_live_load_acquire_u32_(at + 36) == 1U;
}

/** Says goodbye: the row's state becomes closing (release), for the host to free it, only
 * while the claim holds (the host's generation is still the claim's, then the row's word):
 * IBF_OK, or its standing (nothing stored). */
static inline int ibf_client_close(void *region, size_t len, const ibf_client_session *c) {
    const unsigned char *base = (const unsigned char *)region;
    unsigned char *row = ibf_client_row_(region, len, c->row);
    if (row == NULL) {
        return IBF_SESSION_ROW;
    }
    if (ibf_client_move_(base, row, c->host_generation, c->generation, 2U, 3U)
        || ibf_client_move_(base, row, c->host_generation, c->generation, 1U, 3U)) {
        return IBF_OK;
    }
    return ibf_client_standing(region, len, c);
}

/* Sets element `pad` of the bind word from `from` to `to` by compare-and-swap of the whole
 * word, retrying while only other elements change, at most IBF_CAS_TRIES times:
 * IBF_OK; IBF_NOT_FREE with *found the element found; IBF_CONTENDED (nothing
 * stored) when other elements changed before every try (a peer writing the word nonstop). */
static inline int ibf_client_swap_pad_(unsigned char *base, uint32_t pad, uint64_t from, uint64_t to, uint64_t *found) {
    uint32_t word = ibf_live_load_acquire_u32_(base + 164);
    uint32_t tries;
    for (tries = 0; tries < IBF_CAS_TRIES; tries++) {
        unsigned char bytes[4];
        uint32_t next;
        memcpy(bytes, &word, 4);
        *found = ibf_proto_get_(bytes, (size_t)pad * 1U, 1U);
        if (*found != from) {
            return IBF_NOT_FREE;
        }
        ibf_proto_put_(bytes, (size_t)pad * 1U, 1U, to);
        memcpy(&next, bytes, 4);
        IBF_CAS_HOOK(base + 164);
        if (ibf_live_cas_u32_(base + 164, &word, next)) {
            return IBF_OK;
        }
    }
    return IBF_CONTENDED;
}

/**
 * Binds pad `pad` to the claim's row, while the claim stands: its element of the bind word
 * from 255 (unbound) to the row's index, by compare-and-swap of the whole word; then a
 * full (seq_cst) fence and the claim's standing again: when it no longer holds, the bind is
 * undone (the element back to 255). The host's free makes a full fence between its
 * retire and its sweep of the row's pads, so one side always sees the other (Dekker's
 * pattern): a bind this re-check does not undo, the host's sweep lets go, and no pad
 * outlives the session it was bound in (abi-runtime `pads`, whose steps these are).
 * IBF_OK; IBF_NOT_FREE with *owner (may be NULL) the element found; IBF_SESSION_ROW
 * past the 4 pads; the claim's standing when it no longer holds (nothing left bound);
 * IBF_CONTENDED when the word's other pads kept changing (nothing stored, or, when the
 * undo was contended, the pad left bound: unbind it).
 */
static inline int ibf_client_bind_pad(void *region, size_t len, const ibf_client_session *c, uint32_t pad, uint64_t *owner) {
    uint64_t found;
    int standing;
    int rc;
    if (pad >= 4U || len < 168U) {
        return IBF_SESSION_ROW;
    }
    standing = ibf_client_standing(region, len, c);
    if (standing != IBF_OK) {
        return standing;
    }
    rc = ibf_client_swap_pad_((unsigned char *)region, pad, 255U, c->row, &found);
    if (rc == IBF_NOT_FREE && owner != NULL) {
        *owner = found;
    }
    if (rc != IBF_OK) {
        return rc;
    }
    /* The swap before the fence, the re-check's loads after it; the host's free fences
     * between its retire and its sweep. */
    ibf_live_fence_seq_cst_();
    standing = ibf_client_standing(region, len, c);
    if (standing == IBF_OK) {
        return IBF_OK;
    }
    /* The claim went while it bound: undo (a sweep that let the pad go first leaves nothing
     * to undo). */
    if (ibf_client_swap_pad_((unsigned char *)region, pad, c->row, 255U, &found) == IBF_CONTENDED) {
        return IBF_CONTENDED;
    }
    return standing;
}

/** Unbinds pad `pad` from the claim's row (back to 255), while the claim stands:
 * IBF_OK, or IBF_NOT_FREE when the row does not own it, IBF_CONTENDED (nothing
 * stored), IBF_SESSION_ROW, or the claim's standing when it no longer holds (nothing
 * stored). */
static inline int ibf_client_unbind_pad(void *region, size_t len, const ibf_client_session *c, uint32_t pad) {
    uint64_t found;
    int standing;
    if (pad >= 4U || len < 168U) {
        return IBF_SESSION_ROW;
    }
    standing = ibf_client_standing(region, len, c);
    if (standing != IBF_OK) {
        return standing;
    }
    return ibf_client_swap_pad_((unsigned char *)region, pad, c->row, 255U, &found);
}

/* The host's side: retires the row (its state becomes closing, by compare-and-swap of
 * the word it shares with the generation); *old is the state it had.
 * IBF_OK, or IBF_CONTENDED (nothing stored) when the client changed the
 * generation before each of IBF_CAS_TRIES tries. */
static inline int ibf_client_retire_(unsigned char *at, uint32_t *old) {
    uint64_t found = ibf_live_load_acquire_u64_(at + 0);
    uint32_t tries;
    for (tries = 0; tries < IBF_CAS_TRIES; tries++) {
        IBF_CAS_HOOK(at + 0);
        if (ibf_live_cas_u64_(at + 0, &found, ibf_client_join_(3U, ibf_client_generation_of_(found)))) {
            *old = ibf_client_state_of_(found);
            return IBF_OK;
        }
    }
    return IBF_CONTENDED;
}

/* The host's side: a retired row becomes free (release). Only the host moves a closing row. */
static inline void ibf_client_release_row_(unsigned char *at) {
    uint64_t word = ibf_live_load_acquire_u64_(at + 0);
    ibf_live_store_release_u64_(at + 0, ibf_client_join_(0U, ibf_client_generation_of_(word)));
}

/* The host's side, first half of a free: retires row `row` (its state becomes closing: its
 * client sees it gone, and no client can claim it meanwhile) and, after a full fence, lets go of
 * the pads it bound (a bind racing the free is seen here or undone by its client);
 * *old is the state it had. IBF_OK, IBF_SESSION_ROW, or IBF_CONTENDED (the row
 * not retired, or a pad's word kept changing: the row stays retired, and a later free goes on). */
static inline int ibf_client_free_begin_(void *region, size_t len, uint32_t row, uint32_t *old) {
    unsigned char *at = ibf_client_row_(region, len, row);
    int rc;
    if (at == NULL) {
        return IBF_SESSION_ROW;
    }
    rc = ibf_client_retire_(at, old);
    if (rc != IBF_OK) {
        return rc;
    }
    if (*old != 0U && len >= 168U) {
        uint32_t pad;
        uint64_t found;
        /* A full fence between the retire and the sweep: a bind whose client's re-check
         * (after its own fence) does not see the retire, this sweep sees. */
        ibf_live_fence_seq_cst_();
        for (pad = 0; pad < 4U; pad++) {
            if (ibf_client_swap_pad_((unsigned char *)region, pad, row, 255U, &found) == IBF_CONTENDED) {
                return IBF_CONTENDED;
            }
        }
    }
    return IBF_OK;
}

/* The host's side, last half of a free: the retired row `row` becomes free (release), so the
 * next claim finds everything restored. */
static inline void ibf_client_free_end_(void *region, size_t len, uint32_t row) {
    unsigned char *at = ibf_client_row_(region, len, row);
    if (at != NULL) {
        ibf_client_release_row_(at);
    }
}

/* The host's side of a reload, first: adds 1 to the host's generation (acquire-release);
 * *generation is the new one. IBF_OK or IBF_SESSION_ROW. */
static inline int ibf_client_next_generation_(void *region, size_t len, uint32_t *generation) {
    if (ibf_client_row_(region, len, 0U) == NULL) {
        return IBF_SESSION_ROW;
    }
    *generation = ibf_live_fetch_add_u32_((unsigned char *)region + 20, 1U) + 1U;
    return IBF_OK;
}

/** The host's side: before exiting, stores the host state exiting (release). */
static inline int ibf_client_host_exit(void *region, size_t len) {
    if (ibf_client_row_(region, len, 0U) == NULL) {
        return IBF_SESSION_ROW;
    }
    ibf_live_store_release_u32_((unsigned char *)region + 24, 2U);
    return IBF_OK;
}

/** The hung time of session `client` unless the host sets another: a row in use unchanged
 * this long (ms) is hung. */
#define IBF_CLIENT_HUNG_MS 1000U

/** The host's memory of the rows of session `client`, for ibf_client_hung: host-local,
 * kept between checks; ibf_client_watch_init it (or zero it: the default hung time)
 * before the first. `hung_ms` is the host's hung time, 0 for IBF_CLIENT_HUNG_MS. */
typedef struct ibf_client_watch {
    uint64_t beat[8];
    uint64_t since_ns[8];
    uint64_t hung_ms;
    uint32_t state[8];
    uint32_t generation[8];
    unsigned char seen[8];
} ibf_client_watch;

/** Empties *watch (every row unseen) and sets its hung time: `hung_ms`, or 0 for the
 * session's 1000 ms (IBF_CLIENT_HUNG_MS). A host that serves slow
 * clients (a debugger's breakpoint, a loaded CI machine) takes more; one that must free a
 * dead bot's pad sooner, less. */
static inline void ibf_client_watch_init(ibf_client_watch *watch, uint64_t hung_ms) {
    memset(watch, 0, sizeof *watch);
    watch->hung_ms = hung_ms;
}

/**
 * The host's side: whether row `row` is hung: claimed or active with the same state,
 * generation and heartbeat as *watch first saw more than its hung time before `now_ns` (the
 * watch's hung_ms, 1000 ms when 0).
 * `now_ns` is the host's own monotonic clock in ns, the same one each call
 * (CLOCK_MONOTONIC on Linux, QueryPerformanceCounter on Windows); the heartbeat's value only
 * has to change, it is never compared with the host's clock. A row *watch sees in use for the
 * first time gets the whole hung time (a client that never heartbeats, or one that
 * died between claim and activate, is hung only after that); a free or closing row is never
 * hung, and is forgotten. false for no such row.
 */
static inline bool ibf_client_hung(const void *region, size_t len, ibf_client_watch *watch, uint32_t row, uint64_t now_ns) {
    unsigned char *at = ibf_client_row_(region, len, row);
    uint32_t state, generation;
    uint64_t beat, hung_ms, hung_ns;
    if (at == NULL || watch == NULL) {
        return false;
    }
    hung_ms = watch->hung_ms != 0 ? watch->hung_ms : 1000ULL;
    /* No overflow: a hung time past what ns hold is never reached. */
    hung_ns = hung_ms > UINT64_MAX / 1000000ULL ? UINT64_MAX : hung_ms * 1000000ULL;
    ibf_client_row_word_(at, &state, &generation);
    if (state != 1U && state != 2U) {
        watch->seen[row] = 0;
        return false;
    }
    beat = (uint64_t)ibf_live_load_acquire_u64_(at + 16);
    if (!watch->seen[row] || watch->state[row] != state || watch->generation[row] != generation || watch->beat[row] != beat) {
        watch->seen[row] = 1;
        watch->state[row] = state;
        watch->generation[row] = generation;
        watch->beat[row] = beat;
        watch->since_ns[row] = now_ns;
        return false;
    }
    return now_ns > watch->since_ns[row] && now_ns - watch->since_ns[row] > hung_ns;
}
/* The `tick` event: a futex shared between processes on Linux (the 4-byte
 * word at 192, never FUTEX_PRIVATE_FLAG), a named auto-reset event on Windows (from the
 * <windows.h> the header includes: pass the HANDLE the host's name opens with SYNCHRONIZE |
 * EVENT_MODIFY_STATE), a poll elsewhere. */
enum {
    IBF_CLIENT_TICK_NEW = 0,     /* the sequence had moved before sleeping: *seq holds it */
    IBF_CLIENT_TICK_AGAIN = 1,   /* woken or interrupted: look again (the next call says) */
    IBF_CLIENT_TICK_TIMEOUT = 2, /* the timeout passed; *seq holds the sequence then */
    IBF_CLIENT_TICK_ROW = 3      /* no such row, or the region is too short */
};
#if !defined(IBF_EVENT_FUTEX_)
#define IBF_EVENT_FUTEX_ 1
#if defined(__linux__)
#include <errno.h>
#include <limits.h>
#include <linux/futex.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>
#if !defined(__cplusplus) && !defined(__USE_MISC)
long syscall(long number, ...); /* as glibc declares it, without _DEFAULT_SOURCE */
#endif
/* FUTEX_WAIT (shared) on `word` while it holds `expected`, at most timeout_ns: 1 (look again)
 * or 2 (the timeout passed). */
static inline int ibf_event_futex_wait_(const void *word, uint32_t expected, uint64_t timeout_ns) {
    struct timespec ts;
    ts.tv_sec = (time_t)(timeout_ns / 1000000000U);
    ts.tv_nsec = (long)(timeout_ns % 1000000000U);
    if (syscall(SYS_futex, word, FUTEX_WAIT, expected, &ts, NULL, 0) == -1 && errno == ETIMEDOUT) {
        return 2;
    }
    return 1;
}
/* FUTEX_WAKE (shared) of every waiter on `word`. */
static inline void ibf_event_futex_wake_(const void *word) {
    (void)syscall(SYS_futex, word, FUTEX_WAKE, INT_MAX, NULL, NULL, 0);
}
/* futex_waitv (Linux 5.16; shared: FUTEX_32 without FUTEX_PRIVATE_FLAG) on the n words at
 * once (at most 64), each while it holds its `expected`, at most timeout_ns (a day at most):
 * 1 (look again), 2 (the timeout passed), or 0 (no futex_waitv here: fall back). */
static inline int ibf_event_futex_waitv_(const void *const *words, const uint32_t *expected, uint32_t n, uint64_t timeout_ns) {
    struct {
        uint64_t val;
        uint64_t uaddr;
        uint32_t flags;
        uint32_t reserved;
    } w[64];
    struct {
        int64_t tv_sec;
        int64_t tv_nsec;
    } at; /* the kernel's __kernel_timespec: 64-bit seconds on every architecture */
    struct timespec now;
    uint64_t ns;
    uint32_t i;
#if defined(SYS_futex_waitv)
    const long number = SYS_futex_waitv;
#else
    const long number = 449L; /* futex_waitv: one number on every architecture */
#endif
    /* The deadline is absolute on CLOCK_MONOTONIC (1), read by the system call itself:
     * clock_gettime is not declared under -std=c11. */
    if (n == 0U || n > 64U || syscall(SYS_clock_gettime, 1L, &now) != 0) {
        return 0;
    }
    timeout_ns = timeout_ns > 86400000000000ULL ? 86400000000000ULL : timeout_ns;
    ns = (uint64_t)now.tv_nsec + timeout_ns % 1000000000U;
    at.tv_sec = (int64_t)now.tv_sec + (int64_t)(timeout_ns / 1000000000U + ns / 1000000000U);
    at.tv_nsec = (int64_t)(ns % 1000000000U);
    for (i = 0; i < n; i++) {
        w[i].val = expected[i];
        w[i].uaddr = (uint64_t)(uintptr_t)words[i];
        w[i].flags = 2U; /* FUTEX_32 */
        w[i].reserved = 0U;
    }
    if (syscall(number, w, (long)n, 0L, &at, 1L) >= 0) {
        return 1;
    }
    return errno == ETIMEDOUT ? 2 : errno == ENOSYS ? 0 : 1;
}
#else
/* No futex shared between processes here: a wait returns at once (look again: the caller
 * polls), and a wake does nothing. */
static inline int ibf_event_futex_wait_(const void *word, uint32_t expected, uint64_t timeout_ns) {
    (void)word;
    (void)expected;
    (void)timeout_ns;
    return 1;
}
static inline void ibf_event_futex_wake_(const void *word) {
    (void)word;
}
static inline int ibf_event_futex_waitv_(const void *const *words, const uint32_t *expected, uint32_t n, uint64_t timeout_ns) {
    (void)words;
    (void)expected;
    (void)n;
    (void)timeout_ns;
    return 0;
}
#endif
#endif

static inline uint64_t ibf_client_tick_seq_(const unsigned char *base) {
    return ibf_live_load_acquire_u64_(base + 192);
}

/** One round of the client's waiting handshake on the `tick` event: waiting = 1 and a
 * seq_cst fence (ibf_client_set_waiting), the sequence loaded: NEW when it is no
 * longer `last`; else a sleep of at most timeout_ns while the word holds last's low half, then
 * waiting = 0: AGAIN (look again) or TIMEOUT. Call it in a loop bounded by your own deadline;
 * a wake only means "look again". ROW: the row is past the mapping or no longer this claim's
 * (nothing written: ask ibf_client_standing). `event` is the Windows HANDLE (NULL
 * elsewhere). */
static inline int ibf_client_tick_wait(void *region, size_t len, const ibf_client_session *c, void *event, uint64_t last, uint64_t timeout_ns, uint64_t *seq) {
    const unsigned char *base = (const unsigned char *)region;
    int r;
    if ((uint64_t)len < 192U + 8U || ibf_client_set_waiting(region, len, c, 1U) != IBF_OK) {
        return IBF_CLIENT_TICK_ROW;
    }
    *seq = ibf_client_tick_seq_(base);
    if (*seq != last) {
        (void)ibf_client_set_waiting(region, len, c, 0U);
        return IBF_CLIENT_TICK_NEW;
    }
#if defined(_WIN32) && !defined(__linux__)
    r = WaitForSingleObject((HANDLE)event, (DWORD)(timeout_ns / 1000000U + 1U)) == WAIT_OBJECT_0 ? IBF_CLIENT_TICK_AGAIN : IBF_CLIENT_TICK_TIMEOUT;
#else
    (void)event;
    r = ibf_event_futex_wait_(base + 192, (uint32_t)last, timeout_ns);
#endif
    (void)ibf_client_set_waiting(region, len, c, 0U);
    *seq = ibf_client_tick_seq_(base);
    return r;
}

/** The host's side, after a publication: for each row, a seq_cst fence and its waiting flag
 * (ibf_client_host_waiting); the event is set for the rows that wait and those whose
 * bit is set in `always` (rows that want every publication: a ticks cap). On Linux one futex
 * wake for them all, on Windows SetEvent(events[row]) per row (`events`: a HANDLE per row).
 * No OS call when no row wants it. Returns the rows set. */
static inline uint32_t ibf_client_host_set_tick(void *region, size_t len, uint64_t always, void *const *events) {
    uint32_t row, rows = 0;
    for (row = 0; row < 8U; row++) {
        if (ibf_client_host_waiting(region, len, row) || (row < 64U && ((always >> row) & 1U) != 0U)) {
            rows++;
#if defined(_WIN32) && !defined(__linux__)
            if (events != NULL && events[row] != NULL) {
                (void)SetEvent((HANDLE)events[row]);
            }
#endif
        }
    }
    (void)events;
    if (rows > 0U && (uint64_t)len >= 192U + 4U) {
        ibf_event_futex_wake_((const unsigned char *)region + 192);
    }
    return rows;
}

/* A waiter's wake statistics: publish-to-wake over its last waits on the host's clock (the
 * machine's monotonic clock: CLOCK_MONOTONIC on Linux, QueryPerformanceCounter in ns on
 * Windows; a publication's time is the one its host stamped), and two counts (ticks:
 * publications waited for and got; skipped: publications missed, the latest winning).
 * A fixed ring of the last IBF_WAKE_SAMPLES samples: no allocation. Zero it to start. */
enum { IBF_WAKE_SAMPLES = 128 };
typedef struct ibf_wake_stats {
    uint64_t samples[IBF_WAKE_SAMPLES];
    uint64_t recorded; /* samples ever recorded */
    uint64_t ticks;
    uint64_t skipped;
} ibf_wake_stats;

/** A tick got: the sequence went from `last` to `seq`, published at publish_ns and seen at
 * wake_ns (the host's clock). Counts the tick and the publications between (seq - last - 1;
 * none when the sequence went back, as after a reload) and records wake_ns - publish_ns (0
 * when the wake reads earlier). A seq equal to last is no tick and changes nothing. */
static inline void ibf_wake_stats_record(ibf_wake_stats *w, uint64_t last, uint64_t seq, uint64_t publish_ns, uint64_t wake_ns) {
    if (seq == last) {
        return;
    }
    w->ticks++;
    if (seq > last) {
        w->skipped += seq - last - 1U;
    }
    w->samples[w->recorded % IBF_WAKE_SAMPLES] = wake_ns > publish_ns ? wake_ns - publish_ns : 0U;
    w->recorded++;
}

/** The median and 99th percentile of publish-to-wake over the last ticks (at most
 * IBF_WAKE_SAMPLES), in microseconds: the sample of rank (n - 1) * q / 100 in ascending
 * order; both 0 before the first tick. Sorts a copy on the stack. */
static inline void ibf_wake_stats_percentiles_us(const ibf_wake_stats *w, float *p50, float *p99) {
    uint64_t sorted[IBF_WAKE_SAMPLES];
    size_t n = w->recorded < (uint64_t)IBF_WAKE_SAMPLES ? (size_t)w->recorded : (size_t)IBF_WAKE_SAMPLES;
    size_t i, j;
    *p50 = 0.0f;
    *p99 = 0.0f;
    if (n == 0U) {
        return;
    }
    for (i = 0; i < n; i++) {
        uint64_t v = w->samples[i];
        for (j = i; j > 0U && sorted[j - 1U] > v; j--) {
            sorted[j] = sorted[j - 1U];
        }
        sorted[j] = v;
    }
    *p50 = (float)((double)sorted[(n - 1U) * 50U / 100U] / 1000.0);
    *p99 = (float)((double)sorted[(n - 1U) * 99U / 100U] / 1000.0);
}

/**
 * The client's push into queue `log_queue`, bound to its claim *c of session `client`
 * (the `map_len` bytes at `map` are the mapping the claim was made in): the claim's standing
 * first; once the row is no longer the claim's, that standing (IBF_DISCONNECTED,
 * IBF_RELOADED, IBF_HOST_EXITING) and nothing stored, so a stale client never writes
 * the next client's queue. Otherwise ibf_log_queue_push_unscoped's result.
 */
static inline int ibf_log_queue_push(const void *map, size_t map_len, const ibf_client_session *c, void *region, size_t len, const ibf_log_entry *entry, const void *source, size_t source_len, const void *text, size_t text_len) {
    int standing = ibf_client_standing(map, map_len, c);
    if (standing != IBF_OK) {
        return standing;
    }
    return ibf_log_queue_push_unscoped(region, len, entry, source, source_len, text, text_len);
}

/**
 * The client's request into mailbox `mailbox`, bound to its claim *c of session
 * `client` (the `map_len` bytes at `map` are the mapping the claim was made in): the
 * claim's standing first; once the row is no longer the claim's, that standing
 * (IBF_DISCONNECTED, IBF_RELOADED, IBF_HOST_EXITING) and nothing stored.
 * Otherwise ibf_mailbox_request_unscoped's result.
 */
static inline int ibf_mailbox_request(const void *map, size_t map_len, const ibf_client_session *c, void *region, size_t len, const void *text, size_t text_len, uint32_t *seq) {
    int standing = ibf_client_standing(map, map_len, c);
    if (standing != IBF_OK) {
        return standing;
    }
    return ibf_mailbox_request_unscoped(region, len, text, text_len, seq);
}

/**
 * The client's add to its list of exchange `draw`, bound to its claim *c of session
 * `client` (the `map_len` bytes at `map` are the mapping the claim was made in): the
 * claim's standing first; once the row is no longer the claim's, that standing
 * (IBF_DISCONNECTED, IBF_RELOADED, IBF_HOST_EXITING) and nothing written (the
 * list it fills may be the next client's). Otherwise ibf_draw_add_unscoped's result.
 */
static inline int ibf_draw_add(const void *map, size_t map_len, const ibf_client_session *c, ibf_draw_writer *w, const ibf_draw_cmd *item, const void *payload, size_t n) {
    int standing = ibf_client_standing(map, map_len, c);
    if (standing != IBF_OK) {
        return standing;
    }
    return ibf_draw_add_unscoped(w, item, payload, n);
}

/**
 * The client's publication of its list of exchange `draw`, bound to its claim *c of
 * session `client` (as ibf_draw_add): the claim's standing first; once the row
 * is no longer the claim's, that standing and nothing changed. Otherwise
 * ibf_draw_publish_unscoped's result.
 */
static inline int ibf_draw_publish(const void *map, size_t map_len, const ibf_client_session *c, ibf_draw_writer *w, void *region, size_t len, const ibf_draw_list_header *head, bool *overwrote) {
    int standing = ibf_client_standing(map, map_len, c);
    if (standing != IBF_OK) {
        return standing;
    }
    return ibf_draw_publish_unscoped(w, region, len, head, overwrote);
}

/**
 * The client's write of seqlock `pad_input`, bound to its claim *c of session `client`
 * (the `map_len` bytes at `map` are the mapping the claim was made in): the claim's standing
 * first; once the row is no longer the claim's, that standing (IBF_DISCONNECTED,
 * IBF_RELOADED, IBF_HOST_EXITING) and nothing stored, so a stale client never writes
 * the next client's record. Otherwise IBF_OK after ibf_pad_input_write_unscoped.
 */
static inline int ibf_pad_input_write(const void *map, size_t map_len, const ibf_client_session *c, ibf_pad_input *shared, const ibf_pad_input *value) {
    int standing = ibf_client_standing(map, map_len, c);
    if (standing != IBF_OK) {
        return standing;
    }
    ibf_pad_input_write_unscoped(shared, value);
    return IBF_OK;
}

/**
 * The client's write of seqlock `param_defs`, bound to its claim *c of session `client`
 * (the `map_len` bytes at `map` are the mapping the claim was made in): the claim's standing
 * first; once the row is no longer the claim's, that standing (IBF_DISCONNECTED,
 * IBF_RELOADED, IBF_HOST_EXITING) and nothing stored, so a stale client never writes
 * the next client's record. Otherwise ibf_param_defs_write_unscoped's result.
 */
static inline int ibf_param_defs_write(const void *map, size_t map_len, const ibf_client_session *c, ibf_params_header *shared, size_t len, const ibf_param_defs_copy *value) {
    int standing = ibf_client_standing(map, map_len, c);
    if (standing != IBF_OK) {
        return standing;
    }
    return ibf_param_defs_write_unscoped(shared, len, value);
}

/**
 * The client's write of seqlock `stats`, bound to its claim *c of session `client`
 * (the `map_len` bytes at `map` are the mapping the claim was made in): the claim's standing
 * first; once the row is no longer the claim's, that standing (IBF_DISCONNECTED,
 * IBF_RELOADED, IBF_HOST_EXITING) and nothing stored, so a stale client never writes
 * the next client's record. Otherwise ibf_stats_write_unscoped's result.
 */
static inline int ibf_stats_write(const void *map, size_t map_len, const ibf_client_session *c, ibf_stats_header *shared, size_t len, const ibf_stats_copy *value) {
    int standing = ibf_client_standing(map, map_len, c);
    if (standing != IBF_OK) {
        return standing;
    }
    return ibf_stats_write_unscoped(shared, len, value);
}

/**
 * Stores the wake statistics *w of event `tick`'s waiter into *shared, each figure in
 * the field the schema's `stats` names, with the field's access: the plain fields
 * (`wake_p50_us`, `wake_p99_us`) by relaxed atomic stores first, then the atomic ones
 * (`ticks`, `skipped`) by release stores, which publish them. Call it after
 * ibf_wake_stats_record; only the waiter writes these fields.
 */
static inline void ibf_tick_store_wake_stats(ibf_stats_header *shared, const ibf_wake_stats *w) {
    unsigned char *at = (unsigned char *)shared;
    float p50_us, p99_us;
    uint32_t bits;
    ibf_wake_stats_percentiles_us(w, &p50_us, &p99_us);
    memcpy(&bits, &p50_us, 4);
    ibf_live_store_relaxed_u32_(at + 32, bits);
    memcpy(&bits, &p99_us, 4);
    ibf_live_store_relaxed_u32_(at + 36, bits);
    ibf_live_store_release_u64_(at + 16, w->ticks);
    ibf_live_store_release_u64_(at + 24, w->skipped);
}

/*
 * Lockstep (the rule is the generator's plan/lockstep.rs). The bot writes its
 * ibf_pad_input with the tick it answers (for_tick) through the write bound to its claim, then sets
 * the `input` event: ibf_client_answer_input. The host, after publishing tick t,
 * waits for every bot (ibf_client_host_lockstep_bots: the rows whose state is active
 * and whose caps lack `tool`) to answer t, or until its deadline (the publication plus
 * lockstep_timeout_ms), one round per ibf_client_host_wait_input: a row's answer is
 * taken only when a whole copy of its record (IBF_HOST_TRIES tries) says for_tick == t, so
 * an older tick's answer never counts; the word is loaded (acquire) before the copy, and the
 * host sleeps on the lowest pending row's word while it holds that value (a wake only means
 * "look again"). At the deadline each bot still pending misses t: its miss is counted and
 * last[row] keeps its last answer.
 */
enum {
    IBF_CLIENT_INPUT_DONE = 0,   /* every bot answered the tick */
    IBF_CLIENT_INPUT_AGAIN = 1,  /* woken or the word moved: call again with the time left */
    IBF_CLIENT_INPUT_TIMEOUT = 2 /* timeout_ns was 0 (the deadline passed): the pending bots missed */
};

/** The bot's answer in lockstep: ibf_pad_input_write (bound to the claim *c: once the row is
 * no longer the claim's, its standing, and nothing written or set), then the `input` event
 * set: a futex wake on the record's word (Linux), SetEvent(event) on Windows (`event`
 * is the host's event of the row, opened with EVENT_MODIFY_STATE; NULL elsewhere). IBF_OK or the standing. */
static inline int ibf_client_answer_input(const void *map, size_t map_len, const ibf_client_session *c, ibf_pad_input *shared, const ibf_pad_input *value, void *event) {
    int r = ibf_pad_input_write(map, map_len, c, shared, value);
    if (r != IBF_OK) {
        return r;
    }
#if defined(_WIN32) && !defined(__linux__)
    if (event != NULL) {
        (void)SetEvent((HANDLE)event);
    }
#else
    (void)event;
    ibf_event_futex_wake_((const unsigned char *)(const void *)shared + 0);
#endif
    return IBF_OK;
}

/** The rows the host waits for in lockstep, bit `row`: state active and caps without `tool`
 * (acquire loads of the rows in the `len` bytes at `region`, the table's header). */
static inline uint64_t ibf_client_host_lockstep_bots(const void *region, size_t len) {
    uint64_t bots = 0;
    uint32_t row, state, generation;
    for (row = 0; row < 8U && row < 64U; row++) {
        const unsigned char *at = ibf_client_row_(region, len, row);
        if (at == NULL) {
            continue;
        }
        ibf_client_row_word_(at, &state, &generation);
        (void)generation;
        if (state == 2U && (((uint64_t)ibf_live_load_acquire_u32_(at + 12) & 2U) == 0U)) {
            bots |= (uint64_t)1U << row;
        }
    }
    return bots;
}

/** One round of the host's lockstep wait for tick `tick` (see above). *pending: the rows still
 * awaited (start with ibf_client_host_lockstep_bots). pads[row]: the row's record, NULL
 * when absent (a miss at once); last[row] receives each answer taken; misses[row] is counted
 * for each bot that misses. Returns IBF_CLIENT_INPUT_DONE when none is pending; with timeout_ns 0,
 * IBF_CLIENT_INPUT_TIMEOUT (the misses counted, *pending cleared); else IBF_CLIENT_INPUT_AGAIN after a sleep of at
 * most timeout_ns on the lowest pending row's word (events[row]: its HANDLE on Windows).
 * Loop on it with your own deadline, passing 0 once it passed: every loop ends there. */
static inline int ibf_client_host_wait_input(ibf_pad_input *const *pads, uint64_t tick, uint64_t timeout_ns, uint64_t *pending, ibf_pad_input *last, uint64_t *misses, void *const *events) {
    uint32_t row, first = 8U, seen = 0;
    for (row = 0; row < 8U && row < 64U; row++) {
        ibf_pad_input copy;
        uint32_t now;
        if ((*pending >> row & 1U) == 0U) {
            continue;
        }
        if (pads[row] == NULL) {
            *pending &= ~((uint64_t)1U << row);
            misses[row]++;
            continue;
        }
        now = ibf_live_load_acquire_u32_((const unsigned char *)(const void *)pads[row] + 0);
        if (ibf_pad_input_read(pads[row], &copy, IBF_HOST_TRIES, NULL) == IBF_OK && copy.for_tick == tick) {
            last[row] = copy;
            *pending &= ~((uint64_t)1U << row);
        } else if (first == 8U) {
            first = row;
            seen = now;
        }
    }
    if (*pending == 0U) {
        return IBF_CLIENT_INPUT_DONE;
    }
    if (timeout_ns == 0U) {
        for (row = 0; row < 8U && row < 64U; row++) {
            if ((*pending >> row & 1U) != 0U) {
                misses[row]++;
            }
        }
        *pending = 0U;
        return IBF_CLIENT_INPUT_TIMEOUT;
    }
#if defined(_WIN32) && !defined(__linux__)
    (void)seen;
    if (events != NULL && events[first] != NULL) {
        (void)WaitForSingleObject((HANDLE)events[first], (DWORD)(timeout_ns / 1000000U + 1U));
    }
#else
    (void)events;
    (void)ibf_event_futex_wait_((const unsigned char *)(const void *)pads[first] + 0, seen, timeout_ns);
#endif
    return IBF_CLIENT_INPUT_AGAIN;
}

/*
 * The `commands` event (the rule is the generator's plan/commands.rs). A client sets it
 * after each request it sends: ibf_client_request_commands (ibf_mailbox_request,
 * bound to its claim, then a futex wake on the mailbox's mailbox_header.request_seq on Linux, SetEvent
 * on Windows; every send makes the call: no flag says whether the host sleeps). The host
 * sleeps until a row holds a request it has not answered, or its timeout, one round per
 * ibf_client_host_wait_commands: a row is pending when its request sequence is not the
 * one answered (both loaded with acquire); with none pending it sleeps on every asked row's
 * word at once while each holds what its check saw (a wake only means "look again").
 */

/** The client's request, then the `commands` event set: ibf_mailbox_request (bound to the
 * claim *c: once the row is no longer the claim's, its standing, and nothing sent or set; a
 * busy mailbox, nothing set), then a futex wake on the mailbox's mailbox_header.request_seq (Linux),
 * SetEvent(event) on Windows (`event` is the host's event of the row, opened with
 * EVENT_MODIFY_STATE; NULL elsewhere). IBF_OK (and *seq) or what the request returned. */
static inline int ibf_client_request_commands(const void *map, size_t map_len, const ibf_client_session *c, void *region, size_t len, const void *text, size_t text_len, uint32_t *seq, void *event) {
    int r = ibf_mailbox_request(map, map_len, c, region, len, text, text_len, seq);
    if (r != IBF_OK) {
        return r;
    }
#if defined(_WIN32) && !defined(__linux__)
    if (event != NULL) {
        (void)SetEvent((HANDLE)event);
    }
#else
    (void)event;
    ibf_event_futex_wake_((const unsigned char *)region + 0);
#endif
    return IBF_OK;
}

/* The rows of `rows` whose mailbox (regions[row], lens[row] bytes; NULL or shorter than its
 * header: never pending) holds an unanswered request; each asked row's word in seen[row]. */
static inline uint64_t ibf_client_commands_pending_(void *const *regions, const size_t *lens, uint64_t rows, uint32_t *seen) {
    uint64_t pending = 0;
    uint32_t row;
    for (row = 0; row < 8U && row < 64U; row++) {
        const unsigned char *m;
        uint64_t request, answered;
        if ((rows >> row & 1U) == 0U || regions[row] == NULL || lens[row] < 64U) {
            continue;
        }
        m = (const unsigned char *)regions[row];
        request = ibf_live_load_acquire_u32_(m + 0);
        answered = ibf_live_load_acquire_u32_(m + 8);
        seen[row] = (uint32_t)request;
        if (request != answered) {
            pending |= (uint64_t)1U << row;
        }
    }
    return pending;
}

/** One round of the host's wait on the `commands` event. `rows` (bit row): the rows asked about
 * (the active ones); regions[row] and lens[row]: each row's mailbox (ibf_attached's), NULL
 * when absent. Returns the asked rows holding a request not yet answered, at once when there
 * is one; else, after a sleep of at most timeout_ns on every asked row's word at once (none
 * asked: the whole timeout; Linux:
 * futex_waitv, 5.16 or later; an older kernel, the lowest row's word for at most 1 ms;
 * Windows: WaitForMultipleObjects on events[row], the host's events of the rows, up to its
 * ~15.6 ms timer tick), the rows pending then: 0 when the timeout passed or a wake found none.
 * Loop on it with your own deadline: a timeout_ns of 0 only checks. */
static inline uint64_t ibf_client_host_wait_commands(void *const *regions, const size_t *lens, uint64_t rows, uint64_t timeout_ns, void *const *events) {
    uint32_t seen[8];
    uint64_t pending = ibf_client_commands_pending_(regions, lens, rows, seen);
    uint32_t row, n = 0, asked = 0;
#if defined(_WIN32) && !defined(__linux__)
    HANDLE handles[8];
    DWORD ms = (DWORD)(timeout_ns / 1000000U > 86400000U ? 86400000U : timeout_ns / 1000000U + 1U);
#else
    const void *words[8];
    uint32_t expected[8], none = 0;
    int r;
#endif
    if (pending != 0U || timeout_ns == 0U) {
        return pending;
    }
    for (row = 0; row < 8U && row < 64U; row++) {
        if ((rows >> row & 1U) == 0U || regions[row] == NULL || lens[row] < 64U) {
            continue;
        }
        asked++;
#if defined(_WIN32) && !defined(__linux__)
        if (events != NULL && events[row] != NULL) {
            handles[n++] = (HANDLE)events[row];
        }
#else
        words[n] = (const unsigned char *)regions[row] + 0;
        expected[n++] = seen[row];
#endif
    }
#if defined(_WIN32) && !defined(__linux__)
    if (n == 0U) {
        /* No row asked: the whole timeout; rows asked without their events: a poll. */
        Sleep(asked == 0U ? ms : 1U);
        return asked == 0U ? 0U : ibf_client_commands_pending_(regions, lens, rows, seen);
    }
    (void)WaitForMultipleObjects((DWORD)n, handles, FALSE, ms);
#else
    (void)events;
    (void)asked;
    if (n == 0U) {
        /* No row asked: the whole timeout, on a word of this call's own that nobody moves. */
        (void)ibf_event_futex_wait_(&none, 0U, timeout_ns);
        return 0;
    }
    r = ibf_event_futex_waitv_(words, expected, n, timeout_ns);
    if (r == 0) {
        (void)ibf_event_futex_wait_(words[0], expected[0], timeout_ns < 1000000U ? timeout_ns : 1000000U);
    }
#endif
    return ibf_client_commands_pending_(regions, lens, rows, seen);
}

/* A piece of an event's Windows name: its text (kind 0), or the mapping's name (1), the host's
 * pid (2), its generation (3) or the row (4), in decimal. */
typedef struct ibf_event_name_piece_ {
    int kind;
    const char *text;
} ibf_event_name_piece_;

/* Appends the n bytes at `text` to out[*at], keeping a byte for the NUL within cap: 0 when
 * they do not fit (nothing written). */
static inline int ibf_event_name_put_(char *out, size_t cap, size_t *at, const char *text, size_t n) {
    if (*at >= cap || n >= cap - *at) {
        return 0;
    }
    memcpy(out + *at, text, n);
    *at += n;
    return 1;
}

/* Appends `v` in decimal, as ibf_event_name_put_. */
static inline int ibf_event_name_put_u64_(char *out, size_t cap, size_t *at, uint64_t v) {
    char digits[20];
    size_t n = 0;
    do {
        digits[19U - n] = (char)('0' + (int)(v % 10U));
        v /= 10U;
        n++;
    } while (v != 0U);
    return ibf_event_name_put_(out, cap, at, digits + 20U - n, n);
}

/* `Local\` and the n pieces: the name's length, `out` NUL-terminated; 0 when it does not fit
 * `cap` bytes with its NUL (out[0] is then NUL, when cap holds it). */
static inline size_t ibf_event_name_(char *out, size_t cap, const ibf_event_name_piece_ *pieces, size_t n, const char *mapping, uint32_t pid, uint32_t generation, uint32_t row) {
    size_t at = 0, i;
    int ok = ibf_event_name_put_(out, cap, &at, "Local\\", 6U);
    for (i = 0; ok && i < n; i++) {
        switch (pieces[i].kind) {
        case 0: ok = ibf_event_name_put_(out, cap, &at, pieces[i].text, strlen(pieces[i].text)); break;
        case 1: ok = ibf_event_name_put_(out, cap, &at, mapping, strlen(mapping)); break;
        case 2: ok = ibf_event_name_put_u64_(out, cap, &at, pid); break;
        case 3: ok = ibf_event_name_put_u64_(out, cap, &at, generation); break;
        default: ok = ibf_event_name_put_u64_(out, cap, &at, row); break;
        }
    }
    if (!ok) {
        if (cap != 0U) {
            out[0] = '\0';
        }
        return 0;
    }
    out[at] = '\0';
    return at;
}

/** The Windows name of the `tick` event, under `Local\`: the schema's windows_name
 * `{mapping}-{pid}-{generation}-tick-{row}`, with `mapping` (the mapping's name without `Local\`), the host's pid and
 * generation (the handshake's) and the row. Its length, `out` NUL-terminated; 0 when it does not
 * fit `cap` bytes with its NUL (out[0] is then NUL, when cap holds it). */
static inline size_t ibf_event_name_tick(char *out, size_t cap, const char *mapping, uint32_t pid, uint32_t generation, uint32_t row) {
    static const ibf_event_name_piece_ pieces[] = { {1, NULL}, {0, "-"}, {2, NULL}, {0, "-"}, {3, NULL}, {0, "-tick-"}, {4, NULL} };
    return ibf_event_name_(out, cap, pieces, sizeof pieces / sizeof pieces[0], mapping, pid, generation, row);
}

/** The Windows name of the `input` event, under `Local\`: the schema's windows_name
 * `{mapping}-{pid}-{generation}-input-{row}`, with `mapping` (the mapping's name without `Local\`), the host's pid and
 * generation (the handshake's) and the row. Its length, `out` NUL-terminated; 0 when it does not
 * fit `cap` bytes with its NUL (out[0] is then NUL, when cap holds it). */
static inline size_t ibf_event_name_input(char *out, size_t cap, const char *mapping, uint32_t pid, uint32_t generation, uint32_t row) {
    static const ibf_event_name_piece_ pieces[] = { {1, NULL}, {0, "-"}, {2, NULL}, {0, "-"}, {3, NULL}, {0, "-input-"}, {4, NULL} };
    return ibf_event_name_(out, cap, pieces, sizeof pieces / sizeof pieces[0], mapping, pid, generation, row);
}

/** The Windows name of the `commands` event, under `Local\`: the schema's windows_name
 * `{mapping}-{pid}-{generation}-commands-{row}`, with `mapping` (the mapping's name without `Local\`), the host's pid and
 * generation (the handshake's) and the row. Its length, `out` NUL-terminated; 0 when it does not
 * fit `cap` bytes with its NUL (out[0] is then NUL, when cap holds it). */
static inline size_t ibf_event_name_commands(char *out, size_t cap, const char *mapping, uint32_t pid, uint32_t generation, uint32_t row) {
    static const ibf_event_name_piece_ pieces[] = { {1, NULL}, {0, "-"}, {2, NULL}, {0, "-"}, {3, NULL}, {0, "-commands-"}, {4, NULL} };
    return ibf_event_name_(out, cap, pieces, sizeof pieces / sizeof pieces[0], mapping, pid, generation, row);
}
/*
 * Attaching to a mapping
 *
 * ibf_attach(base, len, &handle, &err) checks a mapping of len bytes (an image another
 * process produced) the way abi-codegen's ATTACH.md says, with the same 21 named checks as the Rust
 * and Python targets, and on success fills the handle with the producer's version, its header
 * size and extent, and where every region is: the root table's rows and every block's rows.
 * It returns IBF_ATTACH_OK (0), or the code of the first check that failed, which err
 * describes. It reads the mapping only with atomic loads (the live helpers' chunks), never
 * outside [base, base + len), and writes nothing there.
 *
 * Start-up and reload: attach first loads the producer's state (acquire) and refuses anything
 * but running (IBF_ATTACH_HOST_NOT_RUNNING: try again later), keeps its generation
 * in the handle, and loads both again after every table (an acquire fence first), so tables a
 * reload was rewriting are refused (_HOST_NOT_RUNNING or _HOST_RELOADED), never accepted.
 * ibf_attached_reloaded(&handle) is one or two acquire loads: nonzero when the producer
 * reloaded or left running since, and the handle must be attached again.
 *
 * Geometry: a header field that holds a number of the schema as the writer built it is
 * checked (abi-codegen's ATTACH.md, "Geometry"): equal to the schema's (_GEOMETRY_MISMATCH), or
 * followed (not 0, a multiple of its alignment, at least its least: _GEOMETRY_ZERO,
 * _GEOMETRY_MISALIGNED, _GEOMETRY_TOO_SMALL), and a region must hold what the values it
 * follows ask for (_GEOMETRY_TOO_LARGE). The handle keeps, for each ring and blocks row, the
 * writer's count and slot size or stride (ibf_attached_<row>_count / _stride): pass them to
 * the ring's functions, never the schema's constants.
 *
 * Blocks: a block that fails its checks does not fail the attach. Its rows are absent in the
 * handle (NULL), the other blocks work, and ibf_attached_<row>_check(&handle, k, &err) checks
 * block k again now: its named error (region "bot_blocks[7].draw"), or IBF_ATTACH_OK with its
 * rows filled in (a block the producer finished after the attach). Call it before using a block.
 *
 * - IBF_ATTACH_<CHECK>: the codes; ibf_attach_check_name(code) gives the snake_case
 *   name ("bad_magic"), "ok" for IBF_ATTACH_OK and "unknown" for any other number.
 * - ibf_attach_error: check, check_name, region (a region's name where the check names one,
 *   "table[3].row", else ""), expected and found (where they apply), offset,
 *   size and limit (region_out_of_bounds; offset also for region_misaligned, with align),
 *   other (regions_overlap: the region it overlaps). Names longer than 63 bytes are cut.
 * - ibf_attached: the handle. regions[] holds each row's offset (from the start of the
 *   mapping, the block's own offset added) and size; a size of 0 is an absent region.
 * - ibf_attached_<row>(handle[, i[, j]]): a typed pointer to a region, NULL when it is
 *   absent or a block index is past its count. A row of a block has the block's row name,
 *   its block index first: ibf_attached_<table>_<row>(handle, 3).
 *   ibf_attached_<row>_size(...) gives its size (0 when absent). The pointers are into live
 *   shared memory: read and write through them only with the live helpers above.
 * - ibf_<struct>_read_versioned(src, n, &value, &info, &err) for each extensible record
 *   with a version handshake: the value by the producer's size (abi-codegen's ATTACH.md, last
 *   section), zero-extended, the fields its producer did not write zeroed; info tells the
 *   producer's version and size and the extra bytes past sizeof (at extra_offset in src).
 *   ibf_<struct>_has_<field>(&info) says whether a field a later minor version added is
 *   present. It returns IBF_ATTACH_OK, _MAPPING_TOO_SHORT, _BAD_MAGIC or _MAJOR_MISMATCH.
 *
 * err may be NULL in both; the handle of ibf_attach may be NULL too (a check only).
 */

/** Attach succeeded. */
#define IBF_ATTACH_OK 0
/** Attach check `mapping_too_short` failed. */
#define IBF_ATTACH_MAPPING_TOO_SHORT 101
/** Attach check `bad_magic` failed. */
#define IBF_ATTACH_BAD_MAGIC 102
/** Attach check `major_mismatch` failed. */
#define IBF_ATTACH_MAJOR_MISMATCH 103
/** Attach check `header_too_small` failed. */
#define IBF_ATTACH_HEADER_TOO_SMALL 104
/** Attach check `header_beyond_mapping` failed. */
#define IBF_ATTACH_HEADER_BEYOND_MAPPING 105
/** Attach check `extent_beyond_mapping` failed. */
#define IBF_ATTACH_EXTENT_BEYOND_MAPPING 106
/** Attach check `extent_too_small` failed. */
#define IBF_ATTACH_EXTENT_TOO_SMALL 107
/** Attach check `extent_beyond_block` failed. */
#define IBF_ATTACH_EXTENT_BEYOND_BLOCK 108
/** Attach check `too_many_rows` failed. */
#define IBF_ATTACH_TOO_MANY_ROWS 109
/** Attach check `region_missing` failed. */
#define IBF_ATTACH_REGION_MISSING 110
/** Attach check `region_out_of_bounds` failed. */
#define IBF_ATTACH_REGION_OUT_OF_BOUNDS 111
/** Attach check `region_misaligned` failed. */
#define IBF_ATTACH_REGION_MISALIGNED 112
/** Attach check `region_too_small` failed. */
#define IBF_ATTACH_REGION_TOO_SMALL 113
/** Attach check `regions_overlap` failed. */
#define IBF_ATTACH_REGIONS_OVERLAP 114
/** Attach check `host_not_running` failed. */
#define IBF_ATTACH_HOST_NOT_RUNNING 115
/** Attach check `host_reloaded` failed. */
#define IBF_ATTACH_HOST_RELOADED 116
/** Attach check `geometry_mismatch` failed. */
#define IBF_ATTACH_GEOMETRY_MISMATCH 117
/** Attach check `geometry_zero` failed. */
#define IBF_ATTACH_GEOMETRY_ZERO 118
/** Attach check `geometry_misaligned` failed. */
#define IBF_ATTACH_GEOMETRY_MISALIGNED 119
/** Attach check `geometry_too_small` failed. */
#define IBF_ATTACH_GEOMETRY_TOO_SMALL 120
/** Attach check `geometry_too_large` failed. */
#define IBF_ATTACH_GEOMETRY_TOO_LARGE 121

/** Why an attach or a versioned read failed. */
typedef struct ibf_attach_error {
    /** IBF_ATTACH_OK, or the code of the check that failed. */
    int check;
    /** The check's snake_case name ("ok" on success). */
    const char *check_name;
    /** The region the check names, or "". */
    char region[64];
    uint64_t expected;
    uint64_t found;
    /** region_out_of_bounds: the region's offset and size (from its table's base), and the limit. */
    uint64_t offset;
    uint64_t size;
    uint64_t limit;
    /** region_misaligned: the alignment the region needs. */
    uint64_t align;
    /** regions_overlap: the other region. */
    char other[64];
} ibf_attach_error;

/** One region of an attached mapping: offset from the mapping's start, size 0 when absent. */
typedef struct ibf_attached_region {
    uint64_t offset;
    uint64_t size;
    /** A ring: the writer's slot count; blocks: their count; else 0. */
    uint64_t count;
    /** A ring: the writer's slot size; blocks: the writer's stride between them; else 0. */
    uint64_t stride;
} ibf_attached_region;

/** An attached mapping (see ibf_attach). */
typedef struct ibf_attached {
    unsigned char *base;
    size_t len;
    uint32_t producer_major;
    uint32_t producer_minor;
    uint64_t header_size;
    uint64_t extent;
    /** The producer's generation when attach checked it (0 when the schema has none). */
    uint64_t generation;
    /** Nonzero for the producer's own handle (ibf_produce_attached): its blocks are handed out
     * whatever the producer's state and generation (its own reload moves no table). */
    unsigned host;
    /** Every row of the root table, then each blocks row's blocks' rows, in row order. */
    ibf_attached_region regions[53];
    /** The producer's own handle: the headers of the blocks its sessions' rows own (each block's
     * and its regions'), copied from the image it laid out, never from the mapping, whose blocks
     * a client can write. Its side of each protocol reads its geometry there
     * (ibf_attached_laid_out), and a free stores the host's words back from there. */
    unsigned char laid_out[3912];
} ibf_attached;

/** What a versioned read learned of a record's producer. */
typedef struct ibf_record_info {
    uint32_t producer_major;
    uint32_t producer_minor;
    /** The bytes the producer wrote that were read. */
    size_t producer_size;
    /** Bytes past sizeof the record, which a newer producer wrote, at extra_offset of src. */
    size_t extra;
    size_t extra_offset;
} ibf_record_info;

/** The snake_case name of an attach check's code: the header's one table (ibf_result_name). */
static inline const char *ibf_attach_check_name(int check) {
    return ibf_result_name(check);
}

/* A row of a layout table, with the generator's numbers. */
typedef struct ibf_attach_row_ {
    const char *name;
    uint64_t index;
    /* The minor version of this ABI's major that added the row, -1 when none. */
    int32_t since_minor;
    int optional;
    /* It holds the table's own header struct, which it may overlap. */
    int holds_header;
    uint64_t min_size;
    uint64_t align;
    /* Bit j: it may overlap the row at position j. */
    uint64_t overlaps;
    /* Blocks: the table that lays out each (index into the tables), -1 otherwise. */
    int blocks;
    uint64_t block_count;
    uint64_t block_stride;
    /* The region entry of block 0's first row, from this table's first entry. */
    size_t first_block_slot;
    /* Where its need starts in the table's needs, -1 when none. */
    int need;
    /* A ring's slot count or the blocks' count, and the geometry field that holds the
     * writer's (-1: none); likewise a ring's slot size or the blocks' stride. */
    uint64_t count_value;
    int count_geometry;
    uint64_t size_value;
    int size_geometry;
} ibf_attach_row_;

/* A geometry field: its name, the row whose struct holds it (-1: the table's header), where,
 * and its rule: equal to value, or followed (not 0, a multiple of align, at least least). */
typedef struct ibf_attach_geometry_ {
    const char *name;
    int row;
    uint64_t at;
    unsigned width;
    int equal;
    uint64_t value;
    uint64_t least;
    uint64_t align;
    /* What a producer writes unless told another; has_default 0: it must be told. */
    uint64_t default_value;
    int has_default;
} ibf_attach_geometry_;

/* A layout table: where its fields are in its header, and its rows. Widths 0: no field. */
typedef struct ibf_attach_table_ {
    const char *header_name;
    uint64_t header_size;
    uint64_t table_offset;
    uint64_t max_rows;
    uint64_t row_size;
    uint64_t row_offset_at;
    unsigned row_offset_width;
    uint64_t row_size_at;
    unsigned row_size_width;
    uint64_t count_at;
    unsigned count_width;
    uint64_t extent_at;
    unsigned extent_width;
    const ibf_attach_row_ *rows;
    size_t row_count;
    const ibf_attach_geometry_ *geometry;
    size_t geometry_count;
    /* Each row's need: fixed, terms, then per term factor, n and n geometry positions. */
    const uint64_t *needs;
    /* Region entries one block of this layout takes. */
    size_t slots;
    /* The row count a producer writes. */
    uint64_t rows_used;
} ibf_attach_table_;

/* Layout `bridge`: name, index, since (minor), optional, holds its header,
 * min size, align, overlaps, blocks: table, count, stride, first entry; need; count and
 * size with their geometry. */
static const ibf_attach_row_ ibf_attach_rows_bridge_[5] = {
    {"header", 0U, -1, 0, 1, 1280U, 8U, 0x0ULL, -1, 0U, 0U, 5U, -1, 0U, -1, 0U, -1},
    {"snapshot_ring", 1U, -1, 0, 0, 12168U, 8U, 0x0ULL, -1, 0U, 0U, 5U, 0, 8U, 0, 32768U, 1},
    {"client_blocks", 2U, -1, 0, 0, 576U, 8U, 0x0ULL, 1, 8U, 65536U, 5U, 6, 8U, -1, 65536U, 3},
    {"log_ring", 3U, -1, 0, 0, 72U, 8U, 0x0ULL, -1, 0U, 0U, 29U, 11, 0U, -1, 0U, -1},
    {"bot_blocks", 4U, 5, 0, 0, 2392064U, 8U, 0x0ULL, 2, 8U, 299008U, 29U, -1, 8U, -1, 299008U, -1},
};

/* Layout `bridge`'s geometry fields: name, row, at, width, equal, value, least, align,
 * the producer's default and whether there is one. */
static const ibf_attach_geometry_ ibf_attach_geometry_bridge_[6] = {
    {"ring_slots", -1, 144U, 4U, 0, 0U, 1U, 1U, 8U, 1},
    {"ring_slot_size", -1, 148U, 4U, 0, 0U, 12168U, 8U, 32768U, 1},
    {"max_clients", -1, 152U, 4U, 1, 8U, 0U, 1U, 8U, 1},
    {"client_block_size", -1, 156U, 4U, 0, 0U, 72U, 8U, 65536U, 1},
    {"client_entry_size", -1, 160U, 4U, 1, 128U, 0U, 1U, 128U, 1},
    {"capacity", 3, 16U, 4U, 0, 0U, 8U, 8U, 65536U, 1},
};

/* Layout `bridge`'s needs (see ibf_attach_table_). */
static const uint64_t ibf_attach_needs_bridge_[16] = {
0U, 1U, 1U, 2U, 0U, 1U, 0U, 1U, 8U, 1U, 3U, 64U, 1U, 1U, 1U, 5U
};

/* Layout `client_block`: name, index, since (minor), optional, holds its header,
 * min size, align, overlaps, blocks: table, count, stride, first entry; need; count and
 * size with their geometry. */
static const ibf_attach_row_ ibf_attach_rows_client_block_[3] = {
    {"log_queue", 0U, -1, 0, 0, 72U, 8U, 0x0ULL, -1, 0U, 0U, 3U, 0, 0U, -1, 0U, -1},
    {"pad_input", 1U, -1, 0, 0, 32U, 8U, 0x0ULL, -1, 0U, 0U, 3U, -1, 0U, -1, 0U, -1},
    {"mailbox", 2U, -1, 0, 0, 66U, 4U, 0x0ULL, -1, 0U, 0U, 3U, 5, 0U, -1, 0U, -1},
};

/* Layout `client_block`'s geometry fields: name, row, at, width, equal, value, least, align,
 * the producer's default and whether there is one. */
static const ibf_attach_geometry_ ibf_attach_geometry_client_block_[3] = {
    {"capacity", 0, 16U, 4U, 0, 0U, 8U, 8U, 16384U, 1},
    {"request_capacity", 2, 24U, 4U, 0, 0U, 1U, 1U, 0U, 0},
    {"response_capacity", 2, 28U, 4U, 0, 0U, 1U, 1U, 0U, 0},
};

/* Layout `client_block`'s needs (see ibf_attach_table_). */
static const uint64_t ibf_attach_needs_client_block_[13] = {
64U, 1U, 1U, 1U, 0U, 64U, 2U, 1U, 1U, 1U, 1U, 1U, 2U
};

/* Layout `bot_block`: name, index, since (minor), optional, holds its header,
 * min size, align, overlaps, blocks: table, count, stride, first entry; need; count and
 * size with their geometry. */
static const ibf_attach_row_ ibf_attach_rows_bot_block_[3] = {
    {"draw", 0U, -1, 0, 0, 270592U, 4U, 0x0ULL, -1, 0U, 0U, 3U, -1, 0U, -1, 0U, -1},
    {"params", 1U, -1, 0, 0, 8768U, 8U, 0x0ULL, -1, 0U, 0U, 3U, -1, 0U, -1, 0U, -1},
    {"stats", 2U, -1, 0, 0, 4160U, 8U, 0x0ULL, -1, 0U, 0U, 3U, -1, 0U, -1, 0U, -1},
};

/* Layout `bot_block`'s geometry fields: name, row, at, width, equal, value, least, align,
 * the producer's default and whether there is one. */
static const ibf_attach_geometry_ ibf_attach_geometry_bot_block_[6] = {
    {"buffers", 0, 4U, 4U, 1, 3U, 0U, 1U, 3U, 1},
    {"buffer_size", 0, 8U, 4U, 1, 90176U, 0U, 1U, 90176U, 1},
    {"max_commands", 0, 12U, 4U, 1, 2048U, 0U, 1U, 2048U, 1},
    {"max_payload", 0, 16U, 4U, 1, 16384U, 0U, 1U, 16384U, 1},
    {"max_params", 1, 16U, 4U, 1, 32U, 0U, 1U, 32U, 1},
    {"max_stats", 2, 8U, 4U, 1, 64U, 0U, 1U, 64U, 1},
};

static const ibf_attach_table_ ibf_attach_tables_[3] = {
    {"bridge_header", 1304U, 64U, 8U, 8U, 0U, 4U, 4U, 4U, 28U, 4U, 12U, 4U, ibf_attach_rows_bridge_, 5U, ibf_attach_geometry_bridge_, 6U, ibf_attach_needs_bridge_, 53U, 5U},
    {"client_block_header", 72U, 8U, 8U, 8U, 0U, 4U, 4U, 4U, 4U, 4U, 0U, 4U, ibf_attach_rows_client_block_, 3U, ibf_attach_geometry_client_block_, 3U, ibf_attach_needs_client_block_, 3U, 3U},
    {"client_block_header", 72U, 8U, 8U, 8U, 0U, 4U, 4U, 4U, 4U, 4U, 0U, 4U, ibf_attach_rows_bot_block_, 3U, ibf_attach_geometry_bot_block_, 6U, NULL, 3U, 3U},
};

/* The unsigned little-endian integer of `width` bytes at `at`, read with the live helpers'
 * relaxed loads (one load of `width` bytes where the address is aligned to it); 0 when it
 * would lie outside the `len` bytes, which the checks before every read rule out. */
static inline uint64_t ibf_attach_read_(const unsigned char *base, size_t len, uint64_t at, uint64_t width) {
    unsigned char bytes[8];
    uint64_t value = 0;
    size_t i;
    if (width == 0 || width > 8 || at > (uint64_t)len || width > (uint64_t)len - at) {
        return 0;
    }
    ibf_live_read_bytes_(base + at, bytes, (size_t)width);
    for (i = (size_t)width; i > 0; i--) {
        value = (value << 8) | bytes[i - 1];
    }
    return value;
}

/* Appends `s` to the name `out` (64 bytes), cutting it at 63. */
static inline void ibf_attach_append_(char *out, const char *s) {
    size_t used = strlen(out);
    while (*s != '\0' && used < 63) {
        out[used++] = *s++;
    }
    out[used] = '\0';
}

/* `scope.name`, or `name` when scope is "". */
static inline void ibf_attach_join_(char *out, const char *scope, const char *name) {
    out[0] = '\0';
    ibf_attach_append_(out, scope);
    if (scope[0] != '\0') {
        ibf_attach_append_(out, ".");
    }
    ibf_attach_append_(out, name);
}

/* `name[k]`. */
static inline void ibf_attach_index_(char *out, const char *name, uint64_t k) {
    char digits[24];
    size_t n = 0;
    out[0] = '\0';
    ibf_attach_append_(out, name);
    do {
        digits[n++] = (char)('0' + (int)(k % 10U));
        k /= 10U;
    } while (k != 0);
    ibf_attach_append_(out, "[");
    while (n > 0) {
        char digit[2];
        digit[0] = digits[--n];
        digit[1] = '\0';
        ibf_attach_append_(out, digit);
    }
    ibf_attach_append_(out, "]");
}

/* Appends `name[k]` to the block path `scope` (64 bytes), after a dot unless it is empty. */
static inline void ibf_attach_scope_push_(char *scope, const char *name, uint64_t k) {
    char piece[64];
    ibf_attach_index_(piece, name, k);
    if (scope[0] != '\0') {
        ibf_attach_append_(scope, ".");
    }
    ibf_attach_append_(scope, piece);
}

/* a + b, or UINT64_MAX when it overflows. */
static inline uint64_t ibf_attach_add_(uint64_t a, uint64_t b) {
    return a > UINT64_MAX - b ? UINT64_MAX : a + b;
}

/* a * b, or UINT64_MAX when it overflows. */
static inline uint64_t ibf_attach_mul_(uint64_t a, uint64_t b) {
    return a != 0 && b > UINT64_MAX / a ? UINT64_MAX : a * b;
}

static inline int ibf_attach_fail_(ibf_attach_error *err, int check, const char *region, uint64_t expected, uint64_t found) {
    err->check = check;
    err->check_name = ibf_attach_check_name(check);
    err->region[0] = '\0';
    ibf_attach_append_(err->region, region);
    err->expected = expected;
    err->found = found;
    return check;
}

/* What every step of one attach shares. */
typedef struct ibf_attach_state_ {
    const unsigned char *m;
    size_t len;
    uint32_t minor;
    ibf_attached_region *regions;
    ibf_attach_error *err;
} ibf_attach_state_;

static inline int ibf_attach_block_(const ibf_attach_state_ *s, const ibf_attach_table_ *t, size_t r, size_t first, const char *scope, uint64_t k);

/* The bytes row `row` of table t needs for the writer's `values` of t's geometry fields:
 * its need's fixed part plus each term's factor times its values (saturating). */
static inline uint64_t ibf_attach_need_(const ibf_attach_table_ *t, const ibf_attach_row_ *row, const uint64_t *values) {
    const uint64_t *n = &t->needs[row->need];
    uint64_t total = n[0];
    size_t at = 2;
    uint64_t term;
    for (term = 0; term < n[1]; term++) {
        uint64_t product = n[at];
        size_t factors = (size_t)n[at + 1];
        size_t i;
        at += 2;
        for (i = 0; i < factors; i++) {
            product = ibf_attach_mul_(product, values[(size_t)n[at + i]]);
        }
        at += factors;
        total = ibf_attach_add_(total, product);
    }
    return total;
}

/* check_table of abi-codegen's ATTACH.md: the rows of table `t` at `base` (from the mapping's
 * start), inside `limit` bytes from it, under a header of `header_len` bytes; `scope` is the
 * block's name ("" for the root); its regions go to entries `first` onwards. */
static inline int ibf_attach_check_table_(const ibf_attach_state_ *s, const ibf_attach_table_ *t, uint64_t base, uint64_t limit, uint64_t header_len, const char *scope, size_t first) {
    const unsigned char *m = s->m;
    size_t len = s->len;
    uint64_t count = t->count_width != 0 ? ibf_attach_read_(m, len, base + t->count_at, t->count_width) : t->max_rows;
    char name[64];
    char other[64];
    size_t r, q;
    uint64_t k;
    if (count > t->max_rows) {
        return ibf_attach_fail_(s->err, IBF_ATTACH_TOO_MANY_ROWS, scope, t->max_rows, count);
    }
    for (r = 0; r < t->row_count; r++) {
        const ibf_attach_row_ *row = &t->rows[r];
        ibf_attached_region *region = &s->regions[first + r];
        uint64_t off = 0;
        uint64_t size = 0;
        ibf_attach_join_(name, scope, row->name);
        if (row->index < count) {
            uint64_t at = base + t->table_offset + row->index * t->row_size;
            off = ibf_attach_read_(m, len, at + t->row_offset_at, t->row_offset_width);
            size = ibf_attach_read_(m, len, at + t->row_size_at, t->row_size_width);
        }
        region->offset = 0;
        region->size = 0;
        if (size == 0) {
            int newer = row->since_minor > (int64_t)s->minor;
            if (!row->optional && !newer) {
                return ibf_attach_fail_(s->err, IBF_ATTACH_REGION_MISSING, name, 0, 0);
            }
            continue;
        }
        if (size > limit || off > limit - size) {
            ibf_attach_fail_(s->err, IBF_ATTACH_REGION_OUT_OF_BOUNDS, name, 0, 0);
            s->err->offset = off;
            s->err->size = size;
            s->err->limit = limit;
            return IBF_ATTACH_REGION_OUT_OF_BOUNDS;
        }
        if ((base + off) % row->align != 0) {
            ibf_attach_fail_(s->err, IBF_ATTACH_REGION_MISALIGNED, name, 0, 0);
            s->err->offset = off;
            s->err->align = row->align;
            return IBF_ATTACH_REGION_MISALIGNED;
        }
        if (size < row->min_size) {
            return ibf_attach_fail_(s->err, IBF_ATTACH_REGION_TOO_SMALL, name, row->min_size, size);
        }
        region->offset = base + off;
        region->size = size;
    }
    /* Overlaps: the header's bytes first, then each pair in row order. */
    ibf_attach_join_(other, scope, t->header_name);
    for (r = 0; r < t->row_count; r++) {
        const ibf_attached_region *a = &s->regions[first + r];
        if (a->size != 0 && !t->rows[r].holds_header && a->offset - base < header_len) {
            ibf_attach_join_(name, scope, t->rows[r].name);
            ibf_attach_fail_(s->err, IBF_ATTACH_REGIONS_OVERLAP, name, 0, 0);
            ibf_attach_append_(s->err->other, other);
            return IBF_ATTACH_REGIONS_OVERLAP;
        }
    }
    for (r = 0; r < t->row_count; r++) {
        const ibf_attached_region *a = &s->regions[first + r];
        if (a->size == 0) {
            continue;
        }
        for (q = r + 1; q < t->row_count; q++) {
            const ibf_attached_region *b = &s->regions[first + q];
            if (b->size != 0 && a->offset < b->offset + b->size && b->offset < a->offset + a->size
                && ((t->rows[r].overlaps >> q) & 1U) == 0) {
                ibf_attach_join_(name, scope, t->rows[q].name);
                ibf_attach_join_(other, scope, t->rows[r].name);
                ibf_attach_fail_(s->err, IBF_ATTACH_REGIONS_OVERLAP, name, 0, 0);
                ibf_attach_append_(s->err->other, other);
                return IBF_ATTACH_REGIONS_OVERLAP;
            }
        }
    }
    /* The geometry fields: the header's, and those of a placed row's struct. */
    {
        uint64_t values[6];
        size_t g;
        for (g = 0; g < t->geometry_count; g++) {
            const ibf_attach_geometry_ *x = &t->geometry[g];
            uint64_t at = base;
            uint64_t v;
            values[g] = 0;
            if (x->row >= 0) {
                const ibf_attached_region *holder = &s->regions[first + (size_t)x->row];
                if (holder->size == 0) {
                    continue;
                }
                at = holder->offset;
                ibf_attach_join_(name, scope, t->rows[x->row].name);
            } else {
                ibf_attach_join_(name, scope, t->header_name);
            }
            ibf_attach_append_(name, ".");
            ibf_attach_append_(name, x->name);
            v = ibf_attach_read_(m, len, at + x->at, x->width);
            if (x->equal) {
                if (v != x->value) {
                    return ibf_attach_fail_(s->err, IBF_ATTACH_GEOMETRY_MISMATCH, name, x->value, v);
                }
            } else if (v == 0) {
                return ibf_attach_fail_(s->err, IBF_ATTACH_GEOMETRY_ZERO, name, 0, 0);
            } else if (v % x->align != 0) {
                return ibf_attach_fail_(s->err, IBF_ATTACH_GEOMETRY_MISALIGNED, name, x->align, v);
            } else if (v < x->least) {
                return ibf_attach_fail_(s->err, IBF_ATTACH_GEOMETRY_TOO_SMALL, name, x->least, v);
            }
            values[g] = v;
        }
        /* What each placed row needs of the values it follows. */
        for (r = 0; r < t->row_count; r++) {
            const ibf_attach_row_ *row = &t->rows[r];
            ibf_attached_region *a = &s->regions[first + r];
            if (a->size == 0) {
                continue;
            }
            if (row->need >= 0) {
                uint64_t total = ibf_attach_need_(t, row, values);
                if (total > a->size) {
                    ibf_attach_join_(name, scope, row->name);
                    return ibf_attach_fail_(s->err, IBF_ATTACH_GEOMETRY_TOO_LARGE, name, a->size, total);
                }
            }
            /* The writer's count and stride where the table follows them, else the schema's. */
            a->count = row->count_geometry >= 0 ? values[row->count_geometry] : row->count_value;
            a->stride = row->size_geometry >= 0 ? values[row->size_geometry] : row->size_value;
        }
    }
    /* Then each blocks row's blocks, each laid out by its own table: a block that fails is
     * left out (its rows absent), and does not fail the table. */
    for (r = 0; r < t->row_count; r++) {
        const ibf_attached_region *a = &s->regions[first + r];
        if (t->rows[r].blocks < 0 || a->size == 0) {
            continue;
        }
        for (k = 0; k < a->count; k++) {
            ibf_attach_error quiet;
            ibf_attach_state_ s2 = *s;
            s2.err = &quiet;
            (void)ibf_attach_block_(&s2, t, r, first, scope, k);
        }
    }
    return IBF_ATTACH_OK;
}

/* Block k of blocks row r of table t (whose first region entry is `first`, and whose rows
 * are placed), checked now: its extent, then its table. On failure its rows are absent and
 * the check's code is returned, err naming the block (`scope.row[k]`). */
static inline int ibf_attach_block_(const ibf_attach_state_ *s, const ibf_attach_table_ *t, size_t r, size_t first, const char *scope, uint64_t k) {
    const ibf_attach_row_ *row = &t->rows[r];
    const ibf_attached_region *a = &s->regions[first + r];
    const ibf_attach_table_ *t2 = &ibf_attach_tables_[row->blocks];
    size_t entry = first + row->first_block_slot + (size_t)k * t2->slots;
    uint64_t bbase = a->offset + k * a->stride;
    uint64_t e;
    char name[64];
    char bname[64];
    int failed;
    memset(&s->regions[entry], 0, t2->slots * sizeof s->regions[entry]);
    ibf_attach_join_(name, scope, row->name);
    ibf_attach_index_(bname, name, k);
    if (a->size == 0 || k >= a->count) {
        return ibf_attach_fail_(s->err, IBF_ATTACH_REGION_MISSING, bname, 0, 0);
    }
    e = t2->extent_width != 0 ? ibf_attach_read_(s->m, s->len, bbase + t2->extent_at, t2->extent_width) : a->stride;
    if (e > a->stride) {
        failed = ibf_attach_fail_(s->err, IBF_ATTACH_EXTENT_BEYOND_BLOCK, bname, a->stride, e);
    } else if (e < t2->header_size) {
        failed = ibf_attach_fail_(s->err, IBF_ATTACH_EXTENT_TOO_SMALL, bname, t2->header_size, e);
    } else {
        failed = ibf_attach_check_table_(s, t2, bbase, e, t2->header_size, bname, entry);
    }
    if (failed != IBF_ATTACH_OK) {
        memset(&s->regions[entry], 0, t2->slots * sizeof s->regions[entry]);
    }
    return failed;
}

/* The producer still running at `generation` (acquire loads): IBF_ATTACH_OK, or
 * host_not_running / host_reloaded in err. Attach's last check, and every block's first. */
static inline int ibf_attach_still_running_(const unsigned char *m, size_t len, uint64_t generation, ibf_attach_error *err) {
    uint64_t now = ibf_attach_read_(m, len, 24U, 4U);
    ibf_live_fence_acquire_();
    if (now != 1U) {
        return ibf_attach_fail_(err, IBF_ATTACH_HOST_NOT_RUNNING, "", 1U, now);
    }
    now = ibf_attach_read_(m, len, 20U, 4U);
    ibf_live_fence_acquire_();
    if (now != generation) {
        return ibf_attach_fail_(err, IBF_ATTACH_HOST_RELOADED, "", generation, now);
    }
    return IBF_ATTACH_OK;
}

/** Checks the `len` bytes at `base` as a bridge_header mapping of ABI major 0 (any minor)
 * and fills `out` (see "Attaching to a mapping" above). */
static inline int ibf_attach(const void *base, size_t len, ibf_attached *out, ibf_attach_error *err) {
    const unsigned char *m = (const unsigned char *)base;
    ibf_attach_error err_scratch;
    ibf_attached out_scratch;
    ibf_attach_state_ s;
    uint64_t major, minor, hsz, extent;
    uint64_t generation = 0;
    uint64_t state = 0;
    int failed;
    if (err == NULL) {
        err = &err_scratch;
    }
    if (out == NULL) {
        out = &out_scratch;
    }
    memset(err, 0, sizeof *err);
    err->check_name = "ok";
    memset(out, 0, sizeof *out);
    /* The producer's state first of all (acquire: a relaxed load, then the fence), so that
     * the magic, the version and the tables read after it are what the producer wrote before
     * it stored running (release); its value is judged after the version. */
    if ((uint64_t)len >= 28U) {
        state = ibf_attach_read_(m, len, 24U, 4U);
        ibf_live_fence_acquire_();
    }
    if ((uint64_t)len < 4U) {
        return ibf_attach_fail_(err, IBF_ATTACH_MAPPING_TOO_SHORT, "", 1280U, (uint64_t)len);
    }
    {
        uint64_t magic = ibf_attach_read_(m, len, 0U, 4U);
        if (magic != 0x42464249ULL) {
            return ibf_attach_fail_(err, IBF_ATTACH_BAD_MAGIC, "", 0x42464249ULL, magic);
        }
    }
    if ((uint64_t)len < 1280U) {
        return ibf_attach_fail_(err, IBF_ATTACH_MAPPING_TOO_SHORT, "", 1280U, (uint64_t)len);
    }
    major = ibf_attach_read_(m, len, 4U, 2U);
    if (major != 0U) {
        return ibf_attach_fail_(err, IBF_ATTACH_MAJOR_MISMATCH, "", 0U, major);
    }
    minor = ibf_attach_read_(m, len, 6U, 2U);
    if (state != 1U) {
        return ibf_attach_fail_(err, IBF_ATTACH_HOST_NOT_RUNNING, "", 1U, state);
    }
    generation = ibf_attach_read_(m, len, 20U, 4U);
    ibf_live_fence_acquire_();
    hsz = ibf_attach_read_(m, len, 8U, 4U);
    if (hsz < 1280U) {
        return ibf_attach_fail_(err, IBF_ATTACH_HEADER_TOO_SMALL, "", 1280U, hsz);
    }
    if (hsz > (uint64_t)len) {
        return ibf_attach_fail_(err, IBF_ATTACH_HEADER_BEYOND_MAPPING, "", (uint64_t)len, hsz);
    }
    extent = ibf_attach_read_(m, len, 12U, 4U);
    if (extent > (uint64_t)len) {
        return ibf_attach_fail_(err, IBF_ATTACH_EXTENT_BEYOND_MAPPING, "", (uint64_t)len, extent);
    }
    if (extent < hsz) {
        return ibf_attach_fail_(err, IBF_ATTACH_EXTENT_TOO_SMALL, "", hsz, extent);
    }
    s.m = m;
    s.len = len;
    s.minor = (uint32_t)minor;
    s.regions = out->regions;
    s.err = err;
    failed = ibf_attach_check_table_(&s, &ibf_attach_tables_[0], 0, extent, hsz, "", 0);
    if (failed != IBF_ATTACH_OK) {
        memset(out, 0, sizeof *out);
        return failed;
    }
    /* Nothing reloaded while the tables were read: the fence orders their loads before
     * these, as a seqlock reader's re-check. */
    ibf_live_fence_acquire_();
    failed = ibf_attach_still_running_(m, len, generation, err);
    if (failed != IBF_ATTACH_OK) {
        memset(out, 0, sizeof *out);
        return failed;
    }
    /* The handle hands out pointers the caller may write through, as the mapping allows. */
    out->base = (unsigned char *)(uintptr_t)base;
    out->len = len;
    out->producer_major = (uint32_t)major;
    out->producer_minor = (uint32_t)minor;
    out->header_size = hsz;
    out->extent = extent;
    out->generation = generation;
    return IBF_ATTACH_OK;
}

/** Whether the producer of the mapping `a` was attached to has reloaded or left running since:
 * its state (acquire) is no longer running, or its generation differs from a->generation.
 * One or two loads. Nonzero: the tables the handle checked may be gone; attach again. */
static inline int ibf_attached_reloaded(const ibf_attached *a) {
    ibf_attach_error err;
    return ibf_attach_still_running_(a->base, a->len, a->generation, &err) != IBF_ATTACH_OK;
}

/* The state the checks share, over an attached handle: its mapping, its regions, and err
 * (cleared first; a scratch one when NULL). */
static inline ibf_attach_state_ ibf_attached_state_(ibf_attached *a, ibf_attach_error *err) {
    ibf_attach_state_ s;
    memset(err, 0, sizeof *err);
    err->check_name = "ok";
    s.m = a->base;
    s.len = a->len;
    s.minor = a->producer_minor;
    s.regions = a->regions;
    s.err = err;
    return s;
}

static inline unsigned char *ibf_attached_at_(const ibf_attached *a, size_t slot) {
    return a->regions[slot].size != 0 ? a->base + a->regions[slot].offset : NULL;
}

/**
 * Region `header` (struct): the ibf_bridge_header at its start, or NULL when the producer left
 * it out. The memory is live: read and write it only through the live helpers. Its size in
 * bytes: ibf_attached_header_size (0 when absent).
 */
static inline ibf_bridge_header *ibf_attached_header(const ibf_attached *a) {
    return (ibf_bridge_header *)(void *)ibf_attached_at_(a, 0U);
}
static inline uint64_t ibf_attached_header_size(const ibf_attached *a) {
    return a->regions[0U].size;
}

/**
 * Region `snapshot_ring` (ring): the start of the slots of ring `snapshot_ring`
 * (ibf_attached_snapshot_ring_count and _stride give the writer's slot count and slot size), or
 * NULL when the producer left it out. The memory is live: read and write it only through the
 * live helpers. Its size in bytes: ibf_attached_snapshot_ring_size (0 when absent).
 */
static inline unsigned char *ibf_attached_snapshot_ring(const ibf_attached *a) {
    return (unsigned char *)(void *)ibf_attached_at_(a, 1U);
}
static inline uint64_t ibf_attached_snapshot_ring_size(const ibf_attached *a) {
    return a->regions[1U].size;
}
/** The writer's slot count of `snapshot_ring` (0 when absent). */
static inline uint64_t ibf_attached_snapshot_ring_count(const ibf_attached *a) {
    return a->regions[1U].count;
}
/** The writer's slot size of `snapshot_ring` (0 when absent). */
static inline uint64_t ibf_attached_snapshot_ring_stride(const ibf_attached *a) {
    return a->regions[1U].stride;
}

/**
 * Region `client_blocks` (blocks): the start of its block number `i` (of 8, at the writer's
 * stride, ibf_attached_client_blocks_stride); ibf_attached_client_blocks_check says whether the
 * block passed its checks, or NULL when the producer left it out. The memory is live: read and
 * write it only through the live helpers. Its size in bytes: ibf_attached_client_blocks_size (0
 * when absent).
 */
static inline unsigned char *ibf_attached_client_blocks(const ibf_attached *a, unsigned i) {
    if (i >= a->regions[2U].count || a->regions[2U].size == 0) {
        return NULL;
    }
    return a->base + a->regions[2U].offset + (size_t)i * (size_t)a->regions[2U].stride;
}
static inline uint64_t ibf_attached_client_blocks_size(const ibf_attached *a) {
    return a->regions[2U].size;
}
/** The writer's block count of `client_blocks` (0 when absent). */
static inline uint64_t ibf_attached_client_blocks_count(const ibf_attached *a) {
    return a->regions[2U].count;
}
/** The writer's stride between blocks of `client_blocks` (0 when absent). */
static inline uint64_t ibf_attached_client_blocks_stride(const ibf_attached *a) {
    return a->regions[2U].stride;
}
/** Checks block `i` of `client_blocks` now (its first use): IBF_ATTACH_OK with its rows
 * filled in the handle, or the code of its first failed check, err (may be NULL) naming the
 * block, and its rows absent. Other blocks are not looked at. */
static inline int ibf_attached_client_blocks_check(ibf_attached *a, unsigned i, ibf_attach_error *err) {
    ibf_attach_error err_scratch;
    ibf_attach_state_ s = ibf_attached_state_(a, err != NULL ? err : &err_scratch);
    char scope[64];
    scope[0] = '\0';
    /* The producer's own handle placed every block as it laid it out (ibf_produce_attached):
     * it never reads a block's table back from the mapping, whose blocks a client can write. */
    if (a->host) {
        return IBF_ATTACH_OK;
    }
    /* A block of a reloaded host's old tables is never handed out (to a client: the host's
     * own handle follows its own reloads). */
    if (!a->host) {
        int failed = ibf_attach_still_running_(a->base, a->len, a->generation, s.err);
        if (failed != IBF_ATTACH_OK) {
            return failed;
        }
    }
    {
        int failed = ibf_attach_block_(&s, &ibf_attach_tables_[0], 2U, 0U, scope, i);
        /* Nothing reloaded while the block's tables were read: the fence orders their loads
         * before these, as the root attach's re-check (a re-layout writing new tables meanwhile
         * is refused, retryably, not handed out torn). */
        if (failed == IBF_ATTACH_OK && !a->host) {
            ibf_live_fence_acquire_();
            failed = ibf_attach_still_running_(a->base, a->len, a->generation, s.err);
        }
        return failed;
    }
}

/**
 * Region `client_blocks[i].log_queue` (struct): the ibf_log_queue_header at its start, or NULL
 * when the producer left it out; NULL too when an index is past its block count (i < 8). The
 * memory is live: read and write it only through the live helpers. Its size in bytes:
 * ibf_attached_client_blocks_log_queue_size (0 when absent).
 */
static inline ibf_log_queue_header *ibf_attached_client_blocks_log_queue(const ibf_attached *a, unsigned i) {
    if (!(i < 8U)) {
        return NULL;
    }
    return (ibf_log_queue_header *)(void *)ibf_attached_at_(a, 5U + (size_t)i * 3U);
}
static inline uint64_t ibf_attached_client_blocks_log_queue_size(const ibf_attached *a, unsigned i) {
    if (!(i < 8U)) {
        return 0;
    }
    return a->regions[5U + (size_t)i * 3U].size;
}

/**
 * Region `client_blocks[i].pad_input` (struct): the ibf_pad_input at its start, or NULL when
 * the producer left it out; NULL too when an index is past its block count (i < 8). The memory
 * is live: read and write it only through the live helpers. Its size in bytes:
 * ibf_attached_client_blocks_pad_input_size (0 when absent).
 */
static inline ibf_pad_input *ibf_attached_client_blocks_pad_input(const ibf_attached *a, unsigned i) {
    if (!(i < 8U)) {
        return NULL;
    }
    return (ibf_pad_input *)(void *)ibf_attached_at_(a, 6U + (size_t)i * 3U);
}
static inline uint64_t ibf_attached_client_blocks_pad_input_size(const ibf_attached *a, unsigned i) {
    if (!(i < 8U)) {
        return 0;
    }
    return a->regions[6U + (size_t)i * 3U].size;
}

/**
 * Region `client_blocks[i].mailbox` (struct): the ibf_mailbox_header at its start, or NULL when
 * the producer left it out; NULL too when an index is past its block count (i < 8). The memory
 * is live: read and write it only through the live helpers. Its size in bytes:
 * ibf_attached_client_blocks_mailbox_size (0 when absent).
 */
static inline ibf_mailbox_header *ibf_attached_client_blocks_mailbox(const ibf_attached *a, unsigned i) {
    if (!(i < 8U)) {
        return NULL;
    }
    return (ibf_mailbox_header *)(void *)ibf_attached_at_(a, 7U + (size_t)i * 3U);
}
static inline uint64_t ibf_attached_client_blocks_mailbox_size(const ibf_attached *a, unsigned i) {
    if (!(i < 8U)) {
        return 0;
    }
    return a->regions[7U + (size_t)i * 3U].size;
}

/**
 * Region `log_ring` (struct): the ibf_log_ring_header at its start, or NULL when the producer
 * left it out. The memory is live: read and write it only through the live helpers. Its size in
 * bytes: ibf_attached_log_ring_size (0 when absent).
 */
static inline ibf_log_ring_header *ibf_attached_log_ring(const ibf_attached *a) {
    return (ibf_log_ring_header *)(void *)ibf_attached_at_(a, 3U);
}
static inline uint64_t ibf_attached_log_ring_size(const ibf_attached *a) {
    return a->regions[3U].size;
}

/**
 * Region `bot_blocks` (blocks): the start of its block number `i` (of 8, at the writer's
 * stride, ibf_attached_bot_blocks_stride); ibf_attached_bot_blocks_check says whether the block
 * passed its checks, or NULL when the producer left it out. The memory is live: read and write
 * it only through the live helpers. Its size in bytes: ibf_attached_bot_blocks_size (0 when
 * absent).
 */
static inline unsigned char *ibf_attached_bot_blocks(const ibf_attached *a, unsigned i) {
    if (i >= a->regions[4U].count || a->regions[4U].size == 0) {
        return NULL;
    }
    return a->base + a->regions[4U].offset + (size_t)i * (size_t)a->regions[4U].stride;
}
static inline uint64_t ibf_attached_bot_blocks_size(const ibf_attached *a) {
    return a->regions[4U].size;
}
/** The writer's block count of `bot_blocks` (0 when absent). */
static inline uint64_t ibf_attached_bot_blocks_count(const ibf_attached *a) {
    return a->regions[4U].count;
}
/** The writer's stride between blocks of `bot_blocks` (0 when absent). */
static inline uint64_t ibf_attached_bot_blocks_stride(const ibf_attached *a) {
    return a->regions[4U].stride;
}
/** Checks block `i` of `bot_blocks` now (its first use): IBF_ATTACH_OK with its rows
 * filled in the handle, or the code of its first failed check, err (may be NULL) naming the
 * block, and its rows absent. Other blocks are not looked at. */
static inline int ibf_attached_bot_blocks_check(ibf_attached *a, unsigned i, ibf_attach_error *err) {
    ibf_attach_error err_scratch;
    ibf_attach_state_ s = ibf_attached_state_(a, err != NULL ? err : &err_scratch);
    char scope[64];
    scope[0] = '\0';
    /* The producer's own handle placed every block as it laid it out (ibf_produce_attached):
     * it never reads a block's table back from the mapping, whose blocks a client can write. */
    if (a->host) {
        return IBF_ATTACH_OK;
    }
    /* A block of a reloaded host's old tables is never handed out (to a client: the host's
     * own handle follows its own reloads). */
    if (!a->host) {
        int failed = ibf_attach_still_running_(a->base, a->len, a->generation, s.err);
        if (failed != IBF_ATTACH_OK) {
            return failed;
        }
    }
    {
        int failed = ibf_attach_block_(&s, &ibf_attach_tables_[0], 4U, 0U, scope, i);
        /* Nothing reloaded while the block's tables were read: the fence orders their loads
         * before these, as the root attach's re-check (a re-layout writing new tables meanwhile
         * is refused, retryably, not handed out torn). */
        if (failed == IBF_ATTACH_OK && !a->host) {
            ibf_live_fence_acquire_();
            failed = ibf_attach_still_running_(a->base, a->len, a->generation, s.err);
        }
        return failed;
    }
}

/**
 * Region `bot_blocks[i].draw` (struct): the ibf_draw_header at its start, or NULL when the
 * producer left it out; NULL too when an index is past its block count (i < 8). The memory is
 * live: read and write it only through the live helpers. Its size in bytes:
 * ibf_attached_bot_blocks_draw_size (0 when absent).
 */
static inline ibf_draw_header *ibf_attached_bot_blocks_draw(const ibf_attached *a, unsigned i) {
    if (!(i < 8U)) {
        return NULL;
    }
    return (ibf_draw_header *)(void *)ibf_attached_at_(a, 29U + (size_t)i * 3U);
}
static inline uint64_t ibf_attached_bot_blocks_draw_size(const ibf_attached *a, unsigned i) {
    if (!(i < 8U)) {
        return 0;
    }
    return a->regions[29U + (size_t)i * 3U].size;
}

/**
 * Region `bot_blocks[i].params` (struct): the ibf_params_header at its start, or NULL when the
 * producer left it out; NULL too when an index is past its block count (i < 8). The memory is
 * live: read and write it only through the live helpers. Its size in bytes:
 * ibf_attached_bot_blocks_params_size (0 when absent).
 */
static inline ibf_params_header *ibf_attached_bot_blocks_params(const ibf_attached *a, unsigned i) {
    if (!(i < 8U)) {
        return NULL;
    }
    return (ibf_params_header *)(void *)ibf_attached_at_(a, 30U + (size_t)i * 3U);
}
static inline uint64_t ibf_attached_bot_blocks_params_size(const ibf_attached *a, unsigned i) {
    if (!(i < 8U)) {
        return 0;
    }
    return a->regions[30U + (size_t)i * 3U].size;
}

/**
 * Region `bot_blocks[i].stats` (struct): the ibf_stats_header at its start, or NULL when the
 * producer left it out; NULL too when an index is past its block count (i < 8). The memory is
 * live: read and write it only through the live helpers. Its size in bytes:
 * ibf_attached_bot_blocks_stats_size (0 when absent).
 */
static inline ibf_stats_header *ibf_attached_bot_blocks_stats(const ibf_attached *a, unsigned i) {
    if (!(i < 8U)) {
        return NULL;
    }
    return (ibf_stats_header *)(void *)ibf_attached_at_(a, 31U + (size_t)i * 3U);
}
static inline uint64_t ibf_attached_bot_blocks_stats_size(const ibf_attached *a, unsigned i) {
    if (!(i < 8U)) {
        return 0;
    }
    return a->regions[31U + (size_t)i * 3U].size;
}

/** Whether the attached producer's bridge_header has `controls` (since ABI 0.4): its
 * version has it and its header_size covers it. 0: the bytes there are not the header's (an
 * older producer's shorter header; another region may start there): neither read nor write. */
static inline int ibf_attached_has_controls(const ibf_attached *a) {
    return a->producer_major == 0U && a->producer_minor >= 4U && a->header_size >= 1296U;
}
/** Whether the attached producer's bridge_header has `run_mode` (since ABI 0.7): its
 * version has it and its header_size covers it. 0: the bytes there are not the header's (an
 * older producer's shorter header; another region may start there): neither read nor write. */
static inline int ibf_attached_has_run_mode(const ibf_attached *a) {
    return a->producer_major == 0U && a->producer_minor >= 7U && a->header_size >= 1297U;
}
/** Whether the attached producer's bridge_header has `sim_state` (since ABI 0.7): its
 * version has it and its header_size covers it. 0: the bytes there are not the header's (an
 * older producer's shorter header; another region may start there): neither read nor write. */
static inline int ibf_attached_has_sim_state(const ibf_attached *a) {
    return a->producer_major == 0U && a->producer_minor >= 7U && a->header_size >= 1298U;
}
/** Whether the attached producer's bridge_header has `lockstep_timeout_ms` (since ABI 0.7): its
 * version has it and its header_size covers it. 0: the bytes there are not the header's (an
 * older producer's shorter header; another region may start there): neither read nor write. */
static inline int ibf_attached_has_lockstep_timeout_ms(const ibf_attached *a) {
    return a->producer_major == 0U && a->producer_minor >= 7U && a->header_size >= 1304U;
}

/* Every block of table t (whose first region entry is `first`), checked now, and their own
 * blocks: the first that fails, or OK. */
static inline int ibf_attach_blocks_(const ibf_attach_state_ *s, const ibf_attach_table_ *t, size_t first, const char *scope, int depth) {
    size_t r;
    uint64_t k;
    if (depth > 8) {
        return IBF_ATTACH_OK;
    }
    for (r = 0; r < t->row_count; r++) {
        const ibf_attach_row_ *row = &t->rows[r];
        const ibf_attached_region *a = &s->regions[first + r];
        if (row->blocks < 0 || a->size == 0) {
            continue;
        }
        for (k = 0; k < a->count; k++) {
            const ibf_attach_table_ *t2 = &ibf_attach_tables_[row->blocks];
            size_t entry = first + row->first_block_slot + (size_t)k * t2->slots;
            char name[64];
            char bname[64];
            int failed = ibf_attach_block_(s, t, r, first, scope, k);
            if (failed == IBF_ATTACH_OK) {
                ibf_attach_join_(name, scope, row->name);
                ibf_attach_index_(bname, name, k);
                failed = ibf_attach_blocks_(s, t2, entry, bname, depth + 1);
            }
            if (failed != IBF_ATTACH_OK) {
                return failed;
            }
        }
    }
    return IBF_ATTACH_OK;
}

/** ibf_attach, then every block's check: the first error of all (the verdict every target
 * gives an image), or IBF_ATTACH_OK with every block's rows in the handle. A tool's or a
 * producer's check; a bot checks only the blocks it uses. */
static inline int ibf_attach_all(const void *base, size_t len, ibf_attached *out, ibf_attach_error *err) {
    ibf_attach_error err_scratch;
    ibf_attached out_scratch;
    ibf_attach_state_ s;
    int failed;
    if (err == NULL) {
        err = &err_scratch;
    }
    if (out == NULL) {
        out = &out_scratch;
    }
    failed = ibf_attach(base, len, out, err);
    if (failed != IBF_ATTACH_OK) {
        return failed;
    }
    s = ibf_attached_state_(out, err);
    failed = ibf_attach_blocks_(&s, &ibf_attach_tables_[0], 0, "", 0);
    if (failed != IBF_ATTACH_OK) {
        memset(out, 0, sizeof *out);
    }
    return failed;
}

/*
 * Producing an image (abi-codegen's ATTACH.md, "Producing an image")
 *
 * ibf_lay_out(out, cap, values, n, generation, &len, &err) lays out a new image of the root
 * layout into `out`, a private buffer of cap bytes (zeroed first; not the live mapping): every
 * row placed after the last at its alignment and sized for the geometry, each block laid out
 * by its table, the row counts, extents, handshake and geometry fields, the generation, and
 * the state not running. `values` (n of them) gives geometry values by name,
 * "<header or row>.<field>" ("bridge_header.<field>", "mailbox.request_capacity");
 * any other takes the schema's value, and one no constant sizes must be given. *len is the
 * image's size, also when it does not fit: IBF_PRODUCE_BUFFER_TOO_SHORT (out may be NULL to
 * ask for it). The image is checked as ibf_attach_all would check it, running: a value that
 * breaks a geometry rule gives that check's code, err naming the field.
 * ibf_produce(mapping, len, image, n) writes an image into the live mapping as ATTACH.md's
 * start-up and reload ask: the state not running (release), a release fence, the bytes (live
 * writes), then the state running (release). One producer at a time.
 */

/** The image was laid out or written. */
#define IBF_PRODUCE_OK 0
/** A value names no geometry field (err.region: the name given). */
#define IBF_PRODUCE_UNKNOWN_GEOMETRY 151
/** No constant sizes a geometry field and no value was given for it (err.region: its name). */
#define IBF_PRODUCE_GEOMETRY_NEEDED 152
/** A number does not fit its field (err.region: where; err.found: the number; err.expected:
 * the width). */
#define IBF_PRODUCE_TOO_LARGE 153
/** A block's rows do not fit its stride (err.expected: the stride; err.found: what they
 * need). */
#define IBF_PRODUCE_BLOCK_TOO_SMALL 154
/** The buffer or mapping is smaller than the image (err.expected: the image's size). */
#define IBF_PRODUCE_BUFFER_TOO_SHORT 155

/** A geometry value by name, for ibf_lay_out. */
typedef struct ibf_geometry_value {
    const char *name;
    uint64_t value;
} ibf_geometry_value;

/** The snake_case name of a produce code or an attach check's: ibf_result_name. */
static inline const char *ibf_produce_code_name(int code) {
    return ibf_result_name(code);
}

typedef struct ibf_produce_state_ {
    unsigned char *out;
    size_t cap;
    /* The bytes the image spans so far. */
    uint64_t need;
    const ibf_geometry_value *values;
    size_t n;
    ibf_attach_error *err;
} ibf_produce_state_;

static inline int ibf_produce_fail_(ibf_attach_error *err, int code, const char *what, uint64_t expected, uint64_t found) {
    ibf_attach_fail_(err, code, what, expected, found);
    err->check_name = ibf_produce_code_name(code);
    return code;
}

/* Whether `given` is "owner.field". */
static inline int ibf_produce_name_is_(const char *given, const char *owner, const char *field) {
    while (*owner != '\0' && *given == *owner) {
        given++;
        owner++;
    }
    if (*owner != '\0' || *given++ != '.') {
        return 0;
    }
    while (*field != '\0' && *given == *field) {
        given++;
        field++;
    }
    return *field == '\0' && *given == '\0';
}

/* Whether any table has the geometry field `given`. */
static inline int ibf_produce_known_(const char *given) {
    size_t i, g;
    for (i = 0; i < 3U; i++) {
        const ibf_attach_table_ *t = &ibf_attach_tables_[i];
        for (g = 0; g < t->geometry_count; g++) {
            const ibf_attach_geometry_ *x = &t->geometry[g];
            if (ibf_produce_name_is_(given, x->row >= 0 ? t->rows[x->row].name : t->header_name, x->name)) {
                return 1;
            }
        }
    }
    return 0;
}

/* Writes the `width`-byte little-endian `value` at `at` of the image, where the buffer holds it. */
static inline int ibf_produce_put_(ibf_produce_state_ *s, uint64_t at, unsigned width, uint64_t value, const char *what) {
    unsigned i;
    if (width < 8U && (value >> (8U * width)) != 0) {
        return ibf_produce_fail_(s->err, IBF_PRODUCE_TOO_LARGE, what, width, value);
    }
    if (at + width > s->need) {
        s->need = at + width;
    }
    if (s->out != NULL && at + width <= (uint64_t)s->cap) {
        for (i = 0; i < width; i++) {
            s->out[at + i] = (unsigned char)(value >> (8U * i));
        }
    }
    return IBF_PRODUCE_OK;
}

/* Lays out table t at `base`: a block `stride` bytes long, or the root (stride 0). */
static inline int ibf_produce_table_(ibf_produce_state_ *s, const ibf_attach_table_ *t, uint64_t base, uint64_t stride, const char *scope, int depth) {
    uint64_t values[6];
    uint64_t offsets[5];
    uint64_t sizes[5];
    uint64_t end = t->header_size;
    uint64_t extent;
    char name[64];
    size_t g, r, i;
    uint64_t k;
    int failed;
    if (depth > 8) {
        return ibf_produce_fail_(s->err, IBF_PRODUCE_TOO_LARGE, scope, 0, 0);
    }
    for (g = 0; g < t->geometry_count; g++) {
        const ibf_attach_geometry_ *x = &t->geometry[g];
        const char *owner = x->row >= 0 ? t->rows[x->row].name : t->header_name;
        int given = 0;
        for (i = 0; i < s->n; i++) {
            if (ibf_produce_name_is_(s->values[i].name, owner, x->name)) {
                values[g] = s->values[i].value;
                given = 1;
            }
        }
        if (!given && !x->has_default) {
            ibf_attach_join_(name, owner, x->name);
            return ibf_produce_fail_(s->err, IBF_PRODUCE_GEOMETRY_NEEDED, name, 0, 0);
        }
        if (!given) {
            values[g] = x->default_value;
        }
    }
    /* Each row after the last, at its alignment (from the mapping's start), sized for what
     * it holds and the values it follows. */
    for (r = 0; r < t->row_count; r++) {
        const ibf_attach_row_ *row = &t->rows[r];
        uint64_t size = row->min_size;
        uint64_t at;
        if (row->holds_header) {
            offsets[r] = 0;
            sizes[r] = t->header_size;
            continue;
        }
        if (row->need >= 0 && ibf_attach_need_(t, row, values) > size) {
            size = ibf_attach_need_(t, row, values);
        }
        at = base + end;
        if (row->align > 1U) {
            at = ibf_attach_add_(at, (row->align - at % row->align) % row->align);
        }
        at -= base;
        ibf_attach_join_(name, scope, row->name);
        if ((t->row_offset_width < 8U && (at >> (8U * t->row_offset_width)) != 0)
            || (t->row_size_width < 8U && (size >> (8U * t->row_size_width)) != 0)) {
            return ibf_produce_fail_(s->err, IBF_PRODUCE_TOO_LARGE, name, t->row_size_width, size);
        }
        offsets[r] = at;
        sizes[r] = size;
        end = at + size;
    }
    if (stride != 0 && end > stride) {
        return ibf_produce_fail_(s->err, IBF_PRODUCE_BLOCK_TOO_SMALL, scope, stride, end);
    }
    extent = stride != 0 ? stride : end;
    if (t->extent_width != 0) {
        ibf_attach_join_(name, scope, t->header_name);
        ibf_attach_append_(name, ".extent");
        if ((failed = ibf_produce_put_(s, base + t->extent_at, t->extent_width, extent, name)) != 0) {
            return failed;
        }
    }
    if (base + extent > s->need) {
        s->need = base + extent;
    }
    if (t->count_width != 0) {
        if ((failed = ibf_produce_put_(s, base + t->count_at, t->count_width, t->rows_used, t->header_name)) != 0) {
            return failed;
        }
    }
    for (r = 0; r < t->row_count; r++) {
        uint64_t at = base + t->table_offset + t->rows[r].index * t->row_size;
        ibf_attach_join_(name, scope, t->rows[r].name);
        if ((failed = ibf_produce_put_(s, at + t->row_offset_at, t->row_offset_width, offsets[r], name)) != 0
            || (failed = ibf_produce_put_(s, at + t->row_size_at, t->row_size_width, sizes[r], name)) != 0) {
            return failed;
        }
    }
    for (g = 0; g < t->geometry_count; g++) {
        const ibf_attach_geometry_ *x = &t->geometry[g];
        uint64_t at = x->row >= 0 ? base + offsets[x->row] : base;
        ibf_attach_join_(name, scope, x->row >= 0 ? t->rows[x->row].name : t->header_name);
        ibf_attach_append_(name, ".");
        ibf_attach_append_(name, x->name);
        if ((failed = ibf_produce_put_(s, at + x->at, x->width, values[g], name)) != 0) {
            return failed;
        }
    }
    /* Layout `bridge`: the protocols' words that start at a value of their own (an exchange's state, a session's unbound pads). */
    if (t == &ibf_attach_tables_[0]) {
        if ((failed = ibf_produce_put_(s, base + 164U, 4U, 4294967295U, "bridge_header.pad_owner")) != 0) {
            return failed;
        }
    }
    /* Layout `bot_block`: the protocols' words that start at a value of their own (an exchange's state, a session's unbound pads). */
    if (t == &ibf_attach_tables_[2]) {
        if ((failed = ibf_produce_put_(s, base + offsets[0] + 0U, 4U, 1U, "draw_header.state")) != 0) {
            return failed;
        }
    }
    for (r = 0; r < t->row_count; r++) {
        const ibf_attach_row_ *row = &t->rows[r];
        uint64_t step;
        if (row->blocks < 0) {
            continue;
        }
        step = row->size_geometry >= 0 ? values[row->size_geometry] : row->size_value;
        for (k = 0; k < row->count_value; k++) {
            char bname[64];
            ibf_attach_join_(name, scope, row->name);
            ibf_attach_index_(bname, name, k);
            failed = ibf_produce_table_(s, &ibf_attach_tables_[row->blocks], base + offsets[r] + k * step, step, bname, depth + 1);
            if (failed != IBF_PRODUCE_OK) {
                return failed;
            }
        }
    }
    return IBF_PRODUCE_OK;
}

/** Lays out a new image into `out` (see "Producing an image" above). */
static inline int ibf_lay_out(void *out, size_t cap, const ibf_geometry_value *values, size_t n, uint64_t generation, size_t *len, ibf_attach_error *err) {
    ibf_attach_error err_scratch;
    ibf_produce_state_ s;
    size_t i;
    int failed;
    if (err == NULL) {
        err = &err_scratch;
    }
    memset(err, 0, sizeof *err);
    err->check_name = "ok";
    *len = 0;
    if (out != NULL) {
        memset(out, 0, cap);
    }
    for (i = 0; i < n; i++) {
        if (!ibf_produce_known_(values[i].name)) {
            return ibf_produce_fail_(err, IBF_PRODUCE_UNKNOWN_GEOMETRY, values[i].name, 0, 0);
        }
    }
    s.out = (unsigned char *)out;
    s.cap = cap;
    s.need = 0;
    s.values = values;
    s.n = n;
    s.err = err;
    failed = ibf_produce_table_(&s, &ibf_attach_tables_[0], 0, 0, "", 0);
    failed = failed != 0 ? failed : ibf_produce_put_(&s, 0U, 4U, 0x42464249ULL, "bridge_header");
    failed = failed != 0 ? failed : ibf_produce_put_(&s, 4U, 2U, 0U, "bridge_header");
    failed = failed != 0 ? failed : ibf_produce_put_(&s, 6U, 2U, 9U, "bridge_header");
    failed = failed != 0 ? failed : ibf_produce_put_(&s, 8U, 4U, 1304U, "bridge_header");
    failed = failed != 0 ? failed : ibf_produce_put_(&s, 20U, 4U, generation, "bridge_header");
    if (failed != IBF_PRODUCE_OK) {
        return failed;
    }
    *len = (size_t)s.need;
    if (out == NULL || s.need > (uint64_t)cap) {
        return ibf_produce_fail_(err, IBF_PRODUCE_BUFFER_TOO_SHORT, "", s.need, (uint64_t)cap);
    }
    /* Checked as a reader will see it: running, every block. */
    (void)ibf_produce_put_(&s, 24U, 4U, 1U, "");
    failed = ibf_attach_all(out, *len, NULL, err);
    (void)ibf_produce_put_(&s, 24U, 4U, 0U, "");
    return failed;
}

/** Writes an image from ibf_lay_out (n bytes) into the live mapping of len bytes, as
 * start-up and reload ask (see "Producing an image" above): IBF_PRODUCE_OK, or
 * IBF_PRODUCE_BUFFER_TOO_SHORT with nothing written. */
static inline int ibf_produce(void *mapping, size_t len, const void *image, size_t n) {
    unsigned char *m = (unsigned char *)mapping;
    uint64_t generation;
    /* Whether the mapping holds an image: its generation is not 0 (produce never writes 0). */
    int held = 1;
    if (len < n) {
        return IBF_PRODUCE_BUFFER_TOO_SHORT;
    }
    /* A re-layout of a mapping that already holds an image is a reload: the generation goes
     * past the mapping's (the image's when greater, else the mapping's + 1, wrapping). */
    {
        uint64_t old = ibf_attach_read_(m, len, 20U, 4U);
        generation = ibf_attach_read_((const unsigned char *)image, n, 20U, 4U);
        held = old != 0U;
        if (generation <= old) {
            generation = (old + 1U) & 4294967295ULL;
        }
    }
    ibf_live_store_release_u32_(m + 24, (uint32_t)0U);
    ibf_live_fence_release_();
    /* When the mapping holds an image, every session row's generation goes past the
     * mapping's too (the image's when greater, else the mapping's + 1), so no claim made on
     * the old image matches a row of the new one. Each word that holds one ({offset, bytes,
     * the generation's first byte}) is written whole, with one store of its own size, between
     * the bytes around it. */
    {
        static const uint32_t words[][3] = {
            {256U, 8U, 4U},
            {384U, 8U, 4U},
            {512U, 8U, 4U},
            {640U, 8U, 4U},
            {768U, 8U, 4U},
            {896U, 8U, 4U},
            {1024U, 8U, 4U},
            {1152U, 8U, 4U},
        };
        const unsigned char *from = (const unsigned char *)image;
        size_t done = 0;
        size_t i;
        for (i = 0; i < sizeof words / sizeof words[0] && (uint64_t)words[i][0] + words[i][1] <= (uint64_t)n; i++) {
            size_t at = words[i][0];
            unsigned lane = words[i][2];
            unsigned char bytes[8];
            uint32_t wanted = 0;
            uint32_t old;
            unsigned k;
            memcpy(bytes, from + at, words[i][1]);
            for (k = 0; k < 4U; k++) {
                wanted |= (uint32_t)bytes[lane + k] << (8U * k);
            }
            if (words[i][1] == 8U) {
                old = (uint32_t)(ibf_live_load_acquire_u64_(m + at) >> (8U * lane));
            } else {
                old = ibf_live_load_acquire_u32_(m + at);
            }
            if (held && wanted <= old) {
                wanted = old + 1U;
            }
            for (k = 0; k < 4U; k++) {
                bytes[lane + k] = (unsigned char)(wanted >> (8U * k));
            }
            ibf_live_write_bytes_(m + done, from + done, at - done);
            if (words[i][1] == 8U) {
                uint64_t word;
                memcpy(&word, bytes, 8);
                ibf_live_store_relaxed_u64_(m + at, word);
            } else {
                uint32_t word;
                memcpy(&word, bytes, 4);
                ibf_live_store_relaxed_u32_(m + at, word);
            }
            done = at + words[i][1];
        }
        ibf_live_write_bytes_(m + done, from + done, n - done);
    }
    if ((uint64_t)n >= 24U) {
        ibf_live_store_release_u32_(m + 20, (uint32_t)generation);
    }
    ibf_live_store_release_u32_(m + 24, (uint32_t)1U);
    return IBF_PRODUCE_OK;
}

/** Who produced an image, for ibf_stamp_identity. The clocks are read one right after the
 * other: mono_ns from CLOCK_MONOTONIC on Linux, QueryPerformanceCounter in ns on Windows;
 * unix_ns is Unix time then (a reader maps a monotonic reading t to clock_unix_ns + (t - clock_mono_ns)). */
typedef struct ibf_identity {
    /** The producer's process id: getpid() or GetCurrentProcessId(). */
    uint32_t pid;
    /** Its version string (NUL-terminated; NULL for none). */
    const char *version;
    uint64_t mono_ns;
    int64_t unix_ns;
} ibf_identity;

/* Writes the low `width` bytes of `value`, little-endian, at `at` of an image (plain bytes:
 * the image is not shared yet). */
static inline void ibf_stamp_le_(unsigned char *at, unsigned width, uint64_t value) {
    unsigned i;
    for (i = 0; i < width; i++) {
        at[i] = (unsigned char)(value >> (8U * i));
    }
}

/** Stamps an image from ibf_lay_out (n bytes) with who produced it, before ibf_produce:
 * the fields the handshake names (pid version mono_ns unix_ns), the version NUL-padded.
 * IBF_PRODUCE_OK; IBF_PRODUCE_TOO_LARGE when the version has no room for its NUL
 * (32 bytes in all), IBF_PRODUCE_BUFFER_TOO_SHORT when n is under 144:
 * then nothing is written. */
static inline int ibf_stamp_identity(void *image, size_t n, const ibf_identity *id) {
    unsigned char *m = (unsigned char *)image;
    size_t version_len = 0;
    if (m == NULL || id == NULL || (uint64_t)n < 144U) {
        return IBF_PRODUCE_BUFFER_TOO_SHORT;
    }
    while (id->version != NULL && version_len < 32U && id->version[version_len] != '\0') {
        version_len++;
    }
    if (version_len >= 32U) {
        return IBF_PRODUCE_TOO_LARGE;
    }
    memset(m + 32, 0, 32U);
    if (version_len != 0) {
        memcpy(m + 32, id->version, version_len);
    }
    ibf_stamp_le_(m + 16, 4U, (uint64_t)id->pid);
    ibf_stamp_le_(m + 128, 8U, id->mono_ns);
    ibf_stamp_le_(m + 136, 8U, (uint64_t)id->unix_ns);
    return IBF_PRODUCE_OK;
}

/* The unsigned little-endian integer of `width` bytes at `at` of the host's own copy (plain
 * memory: only the host's handle holds it). */
static inline uint64_t ibf_laid_out_le_(const unsigned char *at, unsigned width) {
    uint64_t v = 0;
    unsigned i;
    for (i = width; i > 0; i--) {
        v = (v << 8) | at[i - 1U];
    }
    return v;
}

/* A run of host words (plan::host_words): `count` words of `width` bytes from `at` of a header. */
typedef struct ibf_host_words_ {
    uint32_t at;
    uint32_t width;
    uint32_t count;
} ibf_host_words_;

/* Stores the `n` runs `words` back into the header at `at` from the host's copy of it at
 * `from`, each word with one __atomic store of its width (relaxed: the free's release store of
 * the row's state publishes them). */
static inline void ibf_restore_host_words_(unsigned char *at, const unsigned char *from, const ibf_host_words_ *words, size_t n) {
    size_t i;
    uint32_t k;
    for (i = 0; i < n; i++) {
        for (k = 0; k < words[i].count; k++) {
            size_t o = (size_t)words[i].at + (size_t)k * words[i].width;
            uint64_t v = ibf_laid_out_le_(from + o, words[i].width);
            switch (words[i].width) {
            case 1: ibf_live_store_relaxed_u8_(at + o, (uint8_t)v); break;
            case 2: ibf_live_store_relaxed_u16_(at + o, (uint16_t)v); break;
            case 4: ibf_live_store_relaxed_u32_(at + o, (uint32_t)v); break;
            default: ibf_live_store_relaxed_u64_(at + o, v); break;
            }
        }
    }
}

/* Place `place` (of ibf_laid_out_places_) of block `i`: its header in the mapping, as the
 * handle's accessor gives it; NULL when absent or shorter than the header. */
static inline unsigned char *ibf_attached_place_(const ibf_attached *a, unsigned place, unsigned i) {
    unsigned char *at = NULL;
    switch (place) {
    case 0U:
        at = (unsigned char *)(void *)ibf_attached_client_blocks(a, i);
        break;
    case 1U:
        at = (unsigned char *)(void *)ibf_attached_client_blocks_log_queue(a, i);
        if (at != NULL && ibf_attached_client_blocks_log_queue_size(a, i) < 64U) {
            at = NULL;
        }
        break;
    case 2U:
        at = (unsigned char *)(void *)ibf_attached_client_blocks_mailbox(a, i);
        if (at != NULL && ibf_attached_client_blocks_mailbox_size(a, i) < 64U) {
            at = NULL;
        }
        break;
    case 3U:
        at = (unsigned char *)(void *)ibf_attached_bot_blocks(a, i);
        break;
    case 4U:
        at = (unsigned char *)(void *)ibf_attached_bot_blocks_draw(a, i);
        if (at != NULL && ibf_attached_bot_blocks_draw_size(a, i) < 64U) {
            at = NULL;
        }
        break;
    case 5U:
        at = (unsigned char *)(void *)ibf_attached_bot_blocks_params(a, i);
        if (at != NULL && ibf_attached_bot_blocks_params_size(a, i) < 64U) {
            at = NULL;
        }
        break;
    case 6U:
        at = (unsigned char *)(void *)ibf_attached_bot_blocks_stats(a, i);
        if (at != NULL && ibf_attached_bot_blocks_stats_size(a, i) < 64U) {
            at = NULL;
        }
        break;
    default:
        break;
    }
    return at;
}

/* Each place whose copy the host's handle keeps (a block's header, or a region's): block 0's
 * copy in laid_out, from one block's copies to the next, the header's bytes, the blocks, and
 * whether it is the block's own header; then the host words a free restores there (runs). */
typedef struct ibf_laid_out_place_ {
    uint32_t copy_at;
    uint32_t stride;
    uint32_t size;
    uint32_t count;
    unsigned header;
    const ibf_host_words_ *words;
    size_t runs;
} ibf_laid_out_place_;
static const ibf_host_words_ ibf_host_words_0_[] = { { 0U, 4U, 18U } };
static const ibf_host_words_ ibf_host_words_1_[] = { { 16U, 4U, 1U } };
static const ibf_host_words_ ibf_host_words_2_[] = { { 12U, 4U, 5U } };
static const ibf_host_words_ ibf_host_words_3_[] = { { 0U, 4U, 18U } };
static const ibf_host_words_ ibf_host_words_4_[] = { { 4U, 4U, 4U } };
static const ibf_host_words_ ibf_host_words_5_[] = { { 8U, 4U, 3U } };
static const ibf_host_words_ ibf_host_words_6_[] = { { 8U, 4U, 1U } };
static const ibf_laid_out_place_ ibf_laid_out_places_[] = {
    { 0U, 200U, 72U, 8U, 1U, ibf_host_words_0_, 1U },
    { 72U, 200U, 64U, 8U, 0U, ibf_host_words_1_, 1U },
    { 136U, 200U, 64U, 8U, 0U, ibf_host_words_2_, 1U },
    { 1600U, 264U, 72U, 8U, 1U, ibf_host_words_3_, 1U },
    { 1672U, 264U, 64U, 8U, 0U, ibf_host_words_4_, 1U },
    { 1736U, 264U, 64U, 8U, 0U, ibf_host_words_5_, 1U },
    { 1800U, 264U, 64U, 8U, 0U, ibf_host_words_6_, 1U },
};

/* Copies the headers of every block its sessions' rows own from the image `image` (`n` bytes,
 * the one just produced), placed as the handle's checks placed them. */
static inline void ibf_attached_copy_laid_out_(ibf_attached *out, const unsigned char *image, size_t n) {
    unsigned place, i;
    for (place = 0; place < sizeof ibf_laid_out_places_ / sizeof ibf_laid_out_places_[0]; place++) {
        const ibf_laid_out_place_ *pl = &ibf_laid_out_places_[place];
        for (i = 0; i < pl->count; i++) {
            const unsigned char *at = ibf_attached_place_(out, place, i);
            size_t from = at != NULL ? (size_t)(at - out->base) : 0U;
            if (at != NULL && from <= n && n - from >= pl->size) {
                memcpy(out->laid_out + pl->copy_at + (size_t)i * pl->stride, image + from, pl->size);
            }
        }
    }
}

/**
 * The header at `at` (a region of a block a session's row owns, or the block itself, as the
 * handle's accessors give it) as the host laid it out: a copy its side of a protocol reads its
 * geometry from (the _laid_out functions: ibf_log_queue_pop_laid_out, ...), never the
 * mapping's bytes, which the block's client can write. NULL for a handle that attached (not
 * the producer's own, ibf_produce_attached) and for any other address: the functions then
 * read the mapping.
 */
static inline const unsigned char *ibf_attached_laid_out(const ibf_attached *a, const void *at) {
    unsigned pass, place, i;
    if (a == NULL || !a->host || at == NULL) {
        return NULL;
    }
    /* The regions first: a region may start where its block does. */
    for (pass = 0; pass < 2U; pass++) {
        for (place = 0; place < sizeof ibf_laid_out_places_ / sizeof ibf_laid_out_places_[0]; place++) {
            const ibf_laid_out_place_ *pl = &ibf_laid_out_places_[place];
            for (i = 0; pl->header == pass && i < pl->count; i++) {
                if ((const void *)ibf_attached_place_(a, place, i) == at) {
                    return a->laid_out + pl->copy_at + (size_t)i * pl->stride;
                }
            }
        }
    }
    return NULL;
}

/** ibf_produce, then the producer's own handle in *out: the mapping attached as
 * ibf_attach_all does, marked the host's (its blocks are handed out across its own reloads)
 * and every block of the root table's blocks rows checked now. IBF_PRODUCE_OK, the code of
 * ibf_produce, or the code of attach's first failed check (err, may be NULL, names it). */
static inline int ibf_produce_attached(void *mapping, size_t len, const void *image, size_t n, ibf_attached *out, ibf_attach_error *err) {
    int rc = ibf_produce(mapping, len, image, n);
    unsigned client_blocks_i;
    unsigned bot_blocks_i;
    if (rc != IBF_PRODUCE_OK) {
        return rc;
    }
    rc = ibf_attach_all(mapping, len, out, err);
    if (rc != IBF_ATTACH_OK) {
        return rc;
    }
    for (client_blocks_i = 0; client_blocks_i < out->regions[2U].count; client_blocks_i++) {
        rc = ibf_attached_client_blocks_check(out, client_blocks_i, err);
        if (rc != IBF_ATTACH_OK) {
            return rc;
        }
    }
    for (bot_blocks_i = 0; bot_blocks_i < out->regions[4U].count; bot_blocks_i++) {
        rc = ibf_attached_bot_blocks_check(out, bot_blocks_i, err);
        if (rc != IBF_ATTACH_OK) {
            return rc;
        }
    }
    /* Marked the host's once every block is placed: its checks are not made again. The headers
     * of its sessions' blocks are copied from the image, not the mapping. */
    out->host = 1U;
    memset(out->laid_out, 0, sizeof out->laid_out);
    ibf_attached_copy_laid_out_(out, (const unsigned char *)image, n);
    return IBF_PRODUCE_OK;
}

/* A field a minor version added to an extensible record. */
typedef struct ibf_record_field_ {
    uint32_t since_major;
    uint32_t since_minor;
    uint64_t offset;
    uint64_t end;
} ibf_record_field_;

/* An extensible record's handshake. Widths 0: no such field. */
typedef struct ibf_record_spec_ {
    uint64_t magic_at;
    unsigned magic_width;
    uint64_t magic;
    uint64_t major_at;
    unsigned major_width;
    uint64_t minor_at;
    unsigned minor_width;
    uint64_t size_at;
    unsigned size_width;
    uint64_t base_size;
    uint64_t full_size;
    const ibf_record_field_ *added;
    size_t added_count;
} ibf_record_spec_;

static inline int ibf_record_has_(const ibf_record_field_ *f, const ibf_record_info *info) {
    return f->since_major == info->producer_major && f->since_minor <= info->producer_minor
        && f->end <= (uint64_t)info->producer_size;
}

/* The last section of abi-codegen's ATTACH.md: `out` (full_size bytes) from the `n` bytes at src. */
static inline int ibf_record_read_(const ibf_record_spec_ *spec, const void *src, size_t n, void *out, ibf_record_info *info, ibf_attach_error *err) {
    const unsigned char *m = (const unsigned char *)src;
    unsigned char *value = (unsigned char *)out;
    ibf_attach_error err_scratch;
    uint64_t major, minor, produced, copied;
    size_t i;
    if (err == NULL) {
        err = &err_scratch;
    }
    memset(err, 0, sizeof *err);
    err->check_name = "ok";
    memset(info, 0, sizeof *info);
    memset(out, 0, (size_t)spec->full_size);
    /* The order of attach: the magic when the bytes hold it, then the length. */
    if (spec->magic_width != 0) {
        uint64_t magic;
        if ((uint64_t)n < (uint64_t)spec->magic_at + spec->magic_width) {
            return ibf_attach_fail_(err, IBF_ATTACH_MAPPING_TOO_SHORT, "", spec->base_size, (uint64_t)n);
        }
        magic = ibf_attach_read_(m, n, spec->magic_at, spec->magic_width);
        if (magic != spec->magic) {
            return ibf_attach_fail_(err, IBF_ATTACH_BAD_MAGIC, "", spec->magic, magic);
        }
    }
    if ((uint64_t)n < spec->base_size) {
        return ibf_attach_fail_(err, IBF_ATTACH_MAPPING_TOO_SHORT, "", spec->base_size, (uint64_t)n);
    }
    major = ibf_attach_read_(m, n, spec->major_at, spec->major_width);
    if (major != 0U) {
        return ibf_attach_fail_(err, IBF_ATTACH_MAJOR_MISMATCH, "", 0U, major);
    }
    minor = ibf_attach_read_(m, n, spec->minor_at, spec->minor_width);
    if (spec->size_width != 0) {
        produced = ibf_attach_read_(m, n, spec->size_at, spec->size_width);
    } else if (minor > 9U) {
        produced = (uint64_t)n;
    } else {
        produced = spec->full_size;
        for (i = 0; i < spec->added_count; i++) {
            if (spec->added[i].since_major == major && spec->added[i].since_minor > minor) {
                produced = spec->added[i].offset;
                break;
            }
        }
    }
    if (produced > (uint64_t)n) {
        produced = (uint64_t)n;
    }
    copied = produced < spec->full_size ? produced : spec->full_size;
    ibf_live_read_bytes_(m, value, (size_t)copied);
    info->producer_major = (uint32_t)major;
    info->producer_minor = (uint32_t)minor;
    info->producer_size = (size_t)produced;
    info->extra = produced > spec->full_size ? (size_t)(produced - spec->full_size) : 0;
    info->extra_offset = (size_t)spec->full_size;
    for (i = 0; i < spec->added_count; i++) {
        if (!ibf_record_has_(&spec->added[i], info)) {
            memset(value + spec->added[i].offset, 0, (size_t)(spec->added[i].end - spec->added[i].offset));
        }
    }
    return IBF_ATTACH_OK;
}

/* The fields minor versions added to `bridge_header`: since major and minor, offset, end. */
static const ibf_record_field_ ibf_bridge_header_added_[4] = {
    {0U, 4U, 1280U, 1296U},
    {0U, 7U, 1296U, 1297U},
    {0U, 7U, 1297U, 1298U},
    {0U, 7U, 1300U, 1304U},
};

static const ibf_record_spec_ ibf_bridge_header_record_ = {
    0U, 4U, 0x42464249ULL, 4U, 2U, 6U, 2U,
    8U, 4U, 1280U, 1304U, ibf_bridge_header_added_, 4U
};

/** Reads a `bridge_header` of `n` bytes at `src` by its producer's size into `out` (see "Attaching
 * to a mapping" above); `src` may be live shared memory. */
static inline int ibf_bridge_header_read_versioned(const void *src, size_t n, ibf_bridge_header *out, ibf_record_info *info, ibf_attach_error *err) {
    return ibf_record_read_(&ibf_bridge_header_record_, src, n, out, info, err);
}

/** Whether the `bridge_header` read with `info` has `controls` (since ABI 0.4): 1 or 0. */
static inline int ibf_bridge_header_has_controls(const ibf_record_info *info) {
    return ibf_record_has_(&ibf_bridge_header_added_[0], info);
}

/** Whether the `bridge_header` read with `info` has `run_mode` (since ABI 0.7): 1 or 0. */
static inline int ibf_bridge_header_has_run_mode(const ibf_record_info *info) {
    return ibf_record_has_(&ibf_bridge_header_added_[1], info);
}

/** Whether the `bridge_header` read with `info` has `sim_state` (since ABI 0.7): 1 or 0. */
static inline int ibf_bridge_header_has_sim_state(const ibf_record_info *info) {
    return ibf_record_has_(&ibf_bridge_header_added_[2], info);
}

/** Whether the `bridge_header` read with `info` has `lockstep_timeout_ms` (since ABI 0.7): 1 or 0. */
static inline int ibf_bridge_header_has_lockstep_timeout_ms(const ibf_record_info *info) {
    return ibf_record_has_(&ibf_bridge_header_added_[3], info);
}

/* The fields minor versions added to `snapshot`: since major and minor, offset, end. */
static const ibf_record_field_ ibf_snapshot_added_[6] = {
    {0U, 6U, 10088U, 10108U},
    {0U, 6U, 10108U, 10364U},
    {0U, 6U, 10364U, 10812U},
    {0U, 6U, 10812U, 11836U},
    {0U, 9U, 11840U, 12096U},
    {0U, 9U, 12096U, 12097U},
};

static const ibf_record_spec_ ibf_snapshot_record_ = {
    0U, 4U, 0x53464249ULL, 4U, 2U, 6U, 2U,
    0U, 0U, 10088U, 12104U, ibf_snapshot_added_, 6U
};

/** Reads a `snapshot` of `n` bytes at `src` by its producer's size into `out` (see "Attaching
 * to a mapping" above); `src` may be live shared memory. */
static inline int ibf_snapshot_read_versioned(const void *src, size_t n, ibf_snapshot *out, ibf_record_info *info, ibf_attach_error *err) {
    return ibf_record_read_(&ibf_snapshot_record_, src, n, out, info, err);
}

/** Whether the `snapshot` read with `info` has `match` (since ABI 0.6): 1 or 0. */
static inline int ibf_snapshot_has_match(const ibf_record_info *info) {
    return ibf_record_has_(&ibf_snapshot_added_[0], info);
}

/** Whether the `snapshot` read with `info` has `pickup_spawns` (since ABI 0.6): 1 or 0. */
static inline int ibf_snapshot_has_pickup_spawns(const ibf_record_info *info) {
    return ibf_record_has_(&ibf_snapshot_added_[1], info);
}

/** Whether the `snapshot` read with `info` has `ships_ext` (since ABI 0.6): 1 or 0. */
static inline int ibf_snapshot_has_ships_ext(const ibf_record_info *info) {
    return ibf_record_has_(&ibf_snapshot_added_[2], info);
}

/** Whether the `snapshot` read with `info` has `projectiles_ext` (since ABI 0.6): 1 or 0. */
static inline int ibf_snapshot_has_projectiles_ext(const ibf_record_info *info) {
    return ibf_record_has_(&ibf_snapshot_added_[3], info);
}

/** Whether the `snapshot` read with `info` has `spawn_markers` (since ABI 0.9): 1 or 0. */
static inline int ibf_snapshot_has_spawn_markers(const ibf_record_info *info) {
    return ibf_record_has_(&ibf_snapshot_added_[4], info);
}

/** Whether the `snapshot` read with `info` has `spawn_marker_count` (since ABI 0.9): 1 or 0. */
static inline int ibf_snapshot_has_spawn_marker_count(const ibf_record_info *info) {
    return ibf_record_has_(&ibf_snapshot_added_[5], info);
}

/**
 * The host's side of session `client` over its attached image: frees row `row` and restores
 * what it owned, whatever its client does. The row is retired first (its state becomes
 * closing: its client sees it gone, and no client can claim it meanwhile) and the pads it
 * bound are let go; then each protocol of the blocks the row owns that would refuse the next
 * client is put back as a new image has it (a row that was free is left as it is):
 *   - with the host's own handle, every word the host alone writes in the headers of the
 *     row's blocks (their tables, capacities and geometry) is stored back from its laid_out
 *     copy, one __atomic store of the word's size each (not a queue's read_pos nor a mailbox's
 *     response_seq, positions that go on);
 *   - client_blocks_mailbox: a waiting request is answered with status 0 and no text;
 *   - bot_blocks_draw: the state becomes 1, the initial one;
 * and then its state becomes free (release), so the next claim finds everything restored.
 * Queues keep their entries for the host to drain. A block whose check failed (or was never
 * made: take the host's own handle from ibf_produce_attached) is left alone. The host takes a
 * new reader of each exchange for the row, once the row is active again.
 * *was (may be NULL) is the state the row had (free: nothing was done; closing: its client
 * had said goodbye). IBF_OK, IBF_SESSION_ROW, or IBF_CONTENDED when a word the
 * client shares with the host (the row's state word, a pad's) kept changing: the free stops
 * there (a retired row stays retired, and a later free goes on).
 */
static inline int ibf_attached_client_free(const ibf_attached *a, uint32_t row, uint32_t *was) {
    unsigned char *header = (unsigned char *)(void *)ibf_attached_header(a);
    size_t len = (size_t)ibf_attached_header_size(a);
    uint32_t old = 0U;
    int rc;
    if (header == NULL) {
        return IBF_SESSION_ROW;
    }
    rc = ibf_client_free_begin_(header, len, row, &old);
    if (rc != IBF_OK) {
        return rc;
    }
    if (old != 0U && a->host) {
        unsigned place;
        for (place = 0U; place < 7U; place++) {
            const ibf_laid_out_place_ *pl = &ibf_laid_out_places_[place];
            unsigned char *at = row < pl->count ? ibf_attached_place_(a, place, row) : NULL;
            if (at != NULL && pl->words != NULL) {
                ibf_restore_host_words_(at, a->laid_out + pl->copy_at + (size_t)row * pl->stride, pl->words, pl->runs);
            }
        }
    }
    if (old != 0U) {
        unsigned char *at = (unsigned char *)(void *)ibf_attached_client_blocks_mailbox(a, row);
        if (at != NULL && ibf_attached_client_blocks_mailbox_size(a, row) >= 24U) {
            uint32_t request = ibf_live_load_acquire_u32_(at + 0U);
            if (ibf_live_load_acquire_u32_(at + 8U) != request) {
                ibf_live_store_relaxed_u32_(at + 12U, 0U);
                ibf_live_store_relaxed_u32_(at + 16U, 0U);
                ibf_live_store_relaxed_u32_(at + 20U, 0U);
                ibf_live_store_release_u32_(at + 8U, request);
            }
        }
    }
    if (old != 0U) {
        unsigned char *at = (unsigned char *)(void *)ibf_attached_bot_blocks_draw(a, row);
        if (at != NULL && ibf_attached_bot_blocks_draw_size(a, row) >= 4U) {
            ibf_live_store_release_u32_(at + 0U, 1U);
        }
    }
    ibf_client_free_end_(header, len, row);
    if (was != NULL) {
        *was = old;
    }
    return IBF_OK;
}

/**
 * The host's reload over its attached image: changes the host's generation (acquire-release)
 * first, then frees every row as ibf_attached_client_free does (after it), so that a client
 * that claims a row a free made sees the new generation. A reload moves no table: the regions
 * the handle's accessors give stay where they were. Every row is tried, also after a free that
 * gave up. *host_generation (may be NULL) is the new generation; was (may be NULL, else
 * 8 states) the state each freed row had; contended (may be NULL, else 8 flags) 1 for
 * each row whose free gave up (left as it was, or retired: a later free goes on; its was[] is
 * 0), else 0. IBF_OK, IBF_SESSION_ROW (nothing done), or IBF_CONTENDED
 * after every row was tried when a free gave up.
 */
static inline int ibf_attached_client_reload(const ibf_attached *a, uint32_t *host_generation, uint32_t *was, unsigned char *contended) {
    unsigned char *header = (unsigned char *)(void *)ibf_attached_header(a);
    uint32_t row;
    uint32_t generation;
    int result = IBF_OK;
    int rc;
    if (header == NULL) {
        return IBF_SESSION_ROW;
    }
    rc = ibf_client_next_generation_(header, (size_t)ibf_attached_header_size(a), &generation);
    if (rc != IBF_OK) {
        return rc;
    }
    for (row = 0; row < 8U; row++) {
        uint32_t old = 0U;
        rc = ibf_attached_client_free(a, row, &old);
        if (rc != IBF_OK) {
            old = 0U;
            result = IBF_CONTENDED;
        }
        if (was != NULL) {
            was[row] = old;
        }
        if (contended != NULL) {
            contended[row] = (unsigned char)(rc != IBF_OK);
        }
    }
    if (host_generation != NULL) {
        *host_generation = generation;
    }
    return result;
}
/* ------------------------------------------------------------------------------------------
 * Directories of running instances
 *
 * A row is ibf_directory_register'ed by one compare-and-swap of its (state, pid) word
 * from free to claimed, filled in, then moved to live; ibf_directory_unregister frees
 * it; ibf_directory_list copies each live row, checks its word and process_time again
 * (acquire fence between), and sorts newest process_time first; ibf_directory_remove_stale frees the
 * claimed or live rows whose process is gone or was created at another time (a reused pid),
 * taking each first and putting it back if its process_time changed meanwhile. Every value
 * read from the mapping is checked before use; every retry loop is bounded.
 * ---------------------------------------------------------------------------------------- */

/** The directory call succeeded. */
#define IBF_DIRECTORY_OK 0
/** The directory is too small for its header. */
#define IBF_DIRECTORY_TOO_SMALL (-1)
/** Its magic is 0: its creator has not laid it out yet. */
#define IBF_DIRECTORY_NOT_READY (-2)
/** Its magic is not the directory's. */
#define IBF_DIRECTORY_BAD_MAGIC (-3)
/** entry_size is smaller than a row this ABI knows, or not a multiple of 8. */
#define IBF_DIRECTORY_BAD_ENTRY_SIZE (-4)
/** entry_count is 0 or its rows run past the mapping. */
#define IBF_DIRECTORY_BAD_ENTRY_COUNT (-5)
/** Every row is claimed or live. */
#define IBF_DIRECTORY_FULL (-6)
/** The host version does not fit its field with its NUL. */
#define IBF_DIRECTORY_VERSION_TOO_LONG (-7)
/** An OS call of an open-or-create failed (C): errno, or GetLastError() on Windows, says
 * which. */
#define IBF_DIRECTORY_OS_ERROR (-8)

/** The name of a IBF_DIRECTORY_* result: ibf_result_name. */
static inline const char *ibf_directory_error_name(int result) {
    return ibf_result_name(result);
}

/* What a process probe found (numbers apart from every other code of the header). */
/** No such process (or a zombie). */
#define IBF_PROCESS_GONE 201
/** The process runs (and its creation time was read). */
#define IBF_PROCESS_RUNNING 202
/** The platform could not tell. */
#define IBF_PROCESS_UNKNOWN 203

/** A process probe: IBF_PROCESS_*, and the creation time of a running process. */
typedef int (*ibf_process_probe_fn)(uint32_t pid, uint64_t *created, void *ctx);

/* A directory's plan: offsets (header fields from its start, row fields from a row's),
 * sizes and values, printed by the generator. */
typedef struct ibf_directory_plan_ {
    size_t magic_at, entry_count_at, entry_size_at, entries_at;
    size_t word_at, process_time_at, abi_major_at, abi_minor_at, version_at, version_len;
    uint32_t magic, max_entries, entry_size, free_state, claimed, live;
    int state_low;
    uint32_t abi_major, abi_minor;
} ibf_directory_plan_;

/** A directory whose header was checked: its rows lie inside the mapping. */
typedef struct ibf_directory {
    unsigned char *base;
    const ibf_directory_plan_ *plan;
    uint32_t count;
    size_t size;
} ibf_directory;

/** A live row as ibf_directory_list copied it. */
typedef struct ibf_directory_host {
    uint32_t row;
    uint32_t pid;
    uint64_t process_time;
    uint16_t abi_major;
    uint16_t abi_minor;
    char host_version[32];
} ibf_directory_host;

/** How many times a list copies a row that changes under it before it skips the row. */
#define IBF_DIRECTORY_LIST_TRIES 8
/** How many times a register retries one free row's compare-and-swap. */
#define IBF_DIRECTORY_REGISTER_TRIES 4

static inline uint64_t ibf_directory_join_(const ibf_directory_plan_ *plan, uint32_t state, uint32_t pid) {
    return plan->state_low ? ((uint64_t)pid << 32 | state) : ((uint64_t)state << 32 | pid);
}

static inline uint32_t ibf_directory_state_of_(const ibf_directory_plan_ *plan, uint64_t word) {
    return plan->state_low ? (uint32_t)word : (uint32_t)(word >> 32);
}

static inline uint32_t ibf_directory_pid_of_(const ibf_directory_plan_ *plan, uint64_t word) {
    return plan->state_low ? (uint32_t)(word >> 32) : (uint32_t)word;
}

static inline unsigned char *ibf_directory_row_(const ibf_directory *d, uint32_t i) {
    return d->base + d->plan->entries_at + (size_t)i * d->size;
}

/* Checks the header: magic, then entry_size and entry_count against `len`. */
static inline int ibf_directory_check_(const ibf_directory_plan_ *plan, void *base, size_t len, ibf_directory *out) {
    unsigned char *b = (unsigned char *)base;
    uint64_t head, magic, count, size;
    size_t fits;
    if (len < plan->entries_at || plan->entries_at % 8U != 0) {
        return IBF_DIRECTORY_TOO_SMALL;
    }
    /* Header words, whole u64s: magic, then count and size. */
    head = ibf_live_load_acquire_u64_(b + plan->magic_at / 8U * 8U);
    magic = (head >> (8U * (plan->magic_at % 8U))) & 0xffffffffULL;
    if (magic == 0) {
        return IBF_DIRECTORY_NOT_READY;
    }
    if (magic != plan->magic) {
        return IBF_DIRECTORY_BAD_MAGIC;
    }
    count = (ibf_live_load_relaxed_u64_(b + plan->entry_count_at / 8U * 8U) >> (8U * (plan->entry_count_at % 8U))) & 0xffffffffULL;
    size = (ibf_live_load_relaxed_u64_(b + plan->entry_size_at / 8U * 8U) >> (8U * (plan->entry_size_at % 8U))) & 0xffffffffULL;
    if (size < plan->entry_size || size % 8U != 0) {
        return IBF_DIRECTORY_BAD_ENTRY_SIZE;
    }
    fits = (len - plan->entries_at) / (size_t)size;
    if (count == 0 || count > fits) {
        return IBF_DIRECTORY_BAD_ENTRY_COUNT;
    }
    out->base = b;
    out->plan = plan;
    out->count = (uint32_t)count;
    out->size = (size_t)size;
    return 0;
}

/* Lays out a new, zeroed directory its creator has not shared yet: count and size, then the
 * magic with release. */
static inline int ibf_directory_lay_out_(const ibf_directory_plan_ *plan, void *base, size_t len, ibf_directory *out) {
    unsigned char *b = (unsigned char *)base;
    unsigned char head[64];
    size_t need = plan->entries_at + (size_t)plan->max_entries * plan->entry_size, i;
    if (len < need || plan->entries_at > sizeof head || plan->entries_at % 8U != 0) {
        return IBF_DIRECTORY_TOO_SMALL;
    }
    memset(head, 0, sizeof head);
    ibf_proto_put_(head, plan->entry_count_at, 4, plan->max_entries);
    ibf_proto_put_(head, plan->entry_size_at, 4, plan->entry_size);
    for (i = plan->entries_at; i < need; i += 8U) {
        ibf_live_store_relaxed_u64_(b + i, 0);
    }
    for (i = 0; i < plan->entries_at; i += 8U) {
        if (i != plan->magic_at / 8U * 8U) {
            ibf_live_store_relaxed_u64_(b + i, ibf_proto_get_(head, i, 8));
        }
    }
    ibf_proto_put_(head, plan->magic_at, 4, plan->magic);
    ibf_live_store_release_u64_(b + plan->magic_at / 8U * 8U, ibf_proto_get_(head, plan->magic_at / 8U * 8U, 8));
    return ibf_directory_check_(plan, base, len, out);
}

/** Row `i`'s state and pid (acquire). */
static inline void ibf_directory_state(const ibf_directory *d, uint32_t i, uint32_t *state, uint32_t *pid) {
    uint64_t w = ibf_live_load_acquire_u64_(ibf_directory_row_(d, i) + d->plan->word_at);
    *state = ibf_directory_state_of_(d->plan, w);
    *pid = ibf_directory_pid_of_(d->plan, w);
}

/* Zeroes a row this process holds claimed (every word but the state word), then frees it. */
static inline void ibf_directory_free_taken_(const ibf_directory *d, unsigned char *row) {
    size_t i;
    /* The take before the zeroing, for a reader's re-check. */
    ibf_live_fence_release_();
    for (i = 0; i < d->plan->entry_size; i += 8U) {
        if (i != d->plan->word_at) {
            ibf_live_store_relaxed_u64_(row + i, 0);
        }
    }
    ibf_live_store_release_u64_(row + d->plan->word_at, ibf_directory_join_(d->plan, d->plan->free_state, 0));
}

/** Frees every stale row (taking each as `me` first); how many. */
static inline uint32_t ibf_directory_remove_stale(const ibf_directory *d, uint32_t me, ibf_process_probe_fn probe, void *ctx) {
    const ibf_directory_plan_ *plan = d->plan;
    uint32_t i, freed = 0;
    for (i = 0; i < d->count; i++) {
        unsigned char *row = ibf_directory_row_(d, i);
        uint64_t word = ibf_live_load_acquire_u64_(row + plan->word_at), mine, expected, created = 0;
        uint64_t time = ibf_live_load_acquire_u64_(row + plan->process_time_at);
        uint32_t state = ibf_directory_state_of_(plan, word), pid = ibf_directory_pid_of_(plan, word);
        int stale, found;
        if (state != plan->claimed && state != plan->live) {
            continue;
        }
        if (pid == 0) {
            stale = 1;
        } else {
            found = probe(pid, &created, ctx);
            stale = found == IBF_PROCESS_GONE
                || (found == IBF_PROCESS_RUNNING && (state == plan->live || time != 0) && created != time);
        }
        if (!stale) {
            continue;
        }
        mine = ibf_directory_join_(plan, plan->claimed, me);
        expected = word;
        if (!ibf_live_cas_u64_(row + plan->word_at, &expected, mine)) {
            continue;
        }
        if (ibf_live_load_acquire_u64_(row + plan->process_time_at) != time) {
            /* Taken over between the check and the swap: give it back untouched. */
            expected = mine;
            (void)ibf_live_cas_u64_(row + plan->word_at, &expected, word);
            continue;
        }
        ibf_directory_free_taken_(d, row);
        freed++;
    }
    return freed;
}

/** Registers: frees stale rows, claims the first free row as `pid`, fills it in, marks it
 * live. 0 and the row in `*row` (and the stale rows freed in `*stale_freed`), or
 * IBF_DIRECTORY_FULL / _VERSION_TOO_LONG. */
static inline int ibf_directory_register(const ibf_directory *d, uint32_t pid, uint64_t process_time, const char *host_version, ibf_process_probe_fn probe, void *ctx, uint32_t *row_out, uint32_t *stale_freed) {
    const ibf_directory_plan_ *plan = d->plan;
    unsigned char image[64];
    size_t vlen = strlen(host_version), at;
    uint64_t claimed = ibf_directory_join_(plan, plan->claimed, pid);
    uint32_t i, tries, freed;
    if (vlen >= plan->version_len) {
        return IBF_DIRECTORY_VERSION_TOO_LONG;
    }
    memset(image, 0, sizeof image);
    ibf_proto_put_(image, plan->process_time_at, 8, process_time);
    ibf_proto_put_(image, plan->abi_major_at, 2, plan->abi_major);
    ibf_proto_put_(image, plan->abi_minor_at, 2, plan->abi_minor);
    memcpy(image + plan->version_at, host_version, vlen);
    freed = ibf_directory_remove_stale(d, pid, probe, ctx);
    if (stale_freed) {
        *stale_freed = freed;
    }
    for (i = 0; i < d->count; i++) {
        unsigned char *row = ibf_directory_row_(d, i);
        uint64_t word = ibf_live_load_acquire_u64_(row + plan->word_at);
        for (tries = 0; tries < IBF_DIRECTORY_REGISTER_TRIES; tries++) {
            uint64_t expected = word;
            if (ibf_directory_state_of_(plan, word) != plan->free_state) {
                break;
            }
            if (ibf_live_cas_u64_(row + plan->word_at, &expected, claimed)) {
                /* The claim before the fill, for a reader's re-check (a seqlock writer's fence). */
                ibf_live_fence_release_();
                for (at = 0; at < plan->entry_size; at += 8U) {
                    if (at != plan->word_at) {
                        ibf_live_store_relaxed_u64_(row + at, ibf_proto_get_(image, at, 8));
                    }
                }
                expected = claimed;
                if (ibf_live_cas_u64_(row + plan->word_at, &expected, ibf_directory_join_(plan, plan->live, pid))) {
                    *row_out = i;
                    return 0;
                }
                /* Another host judged the claim stale and took it: try further on. */
                break;
            }
            word = expected;
        }
    }
    return IBF_DIRECTORY_FULL;
}

/** Unregisters row `row` (live back to free), only while it is still (pid, process_time)'s:
 * whether it was. */
static inline bool ibf_directory_unregister(const ibf_directory *d, uint32_t row_index, uint32_t pid, uint64_t process_time) {
    const ibf_directory_plan_ *plan = d->plan;
    unsigned char *row;
    uint64_t live = ibf_directory_join_(plan, plan->live, pid), mine = ibf_directory_join_(plan, plan->claimed, pid), expected = live;
    if (row_index >= d->count) {
        return false;
    }
    row = ibf_directory_row_(d, row_index);
    if (!ibf_live_cas_u64_(row + plan->word_at, &expected, mine)) {
        return false;
    }
    if (ibf_live_load_acquire_u64_(row + plan->process_time_at) != process_time) {
        expected = mine;
        (void)ibf_live_cas_u64_(row + plan->word_at, &expected, live);
        return false;
    }
    ibf_directory_free_taken_(d, row);
    return true;
}

/** Lists the live rows into `out` (at most `cap`), newest process_time first (then by row):
 * how many. Rows with a state none of free, claimed, live, or that changed under the reader
 * IBF_DIRECTORY_LIST_TRIES times, are skipped and counted in `*problems`. */
static inline size_t ibf_directory_list(const ibf_directory *d, ibf_directory_host *out, size_t cap, uint32_t *problems) {
    const ibf_directory_plan_ *plan = d->plan;
    unsigned char copy[64];
    size_t n = 0, at, j, vlen;
    uint32_t i, tries, bad = 0;
    for (i = 0; i < d->count && n < cap; i++) {
        unsigned char *row = ibf_directory_row_(d, i);
        int done = 0;
        for (tries = 0; tries < IBF_DIRECTORY_LIST_TRIES && !done; tries++) {
            uint64_t word = ibf_live_load_acquire_u64_(row + plan->word_at);
            uint32_t state = ibf_directory_state_of_(plan, word);
            ibf_directory_host h;
            if (state == plan->free_state || state == plan->claimed) {
                done = 1;
                break;
            }
            if (state != plan->live) {
                bad++;
                done = 1;
                break;
            }
            for (at = 0; at < plan->entry_size; at += 8U) {
                ibf_proto_put_(copy, at, 8, ibf_live_load_relaxed_u64_(row + at));
            }
            ibf_live_fence_acquire_();
            /* The word and the time again: a row that went through other owners back to
             * the same pid has another time, unless it is the same process's. */
            if (ibf_live_load_relaxed_u64_(row + plan->word_at) != word
                || ibf_live_load_relaxed_u64_(row + plan->process_time_at) != ibf_proto_get_(copy, plan->process_time_at, 8)) {
                continue;
            }
            memset(&h, 0, sizeof h);
            h.row = i;
            h.pid = ibf_directory_pid_of_(plan, word);
            h.process_time = ibf_proto_get_(copy, plan->process_time_at, 8);
            h.abi_major = (uint16_t)ibf_proto_get_(copy, plan->abi_major_at, 2);
            h.abi_minor = (uint16_t)ibf_proto_get_(copy, plan->abi_minor_at, 2);
            for (vlen = 0; vlen < plan->version_len && vlen + 1U < sizeof h.host_version && copy[plan->version_at + vlen] != 0; vlen++) {
                h.host_version[vlen] = (char)copy[plan->version_at + vlen];
            }
            /* Insertion: newest first, then by row. */
            for (j = n; j > 0 && out[j - 1].process_time < h.process_time; j--) {
                out[j] = out[j - 1];
            }
            out[j] = h;
            n++;
            done = 1;
        }
        if (!done) {
            bad++;
        }
    }
    if (problems) {
        *problems = bad;
    }
    return n;
}

#if defined(__linux__)
#include <stdio.h>
/** This platform's process probe (Linux): field 22 of /proc/PID/stat, starttime in clock
 * ticks since boot, and gone for no such process or a zombie. */
static inline int ibf_process_probe(uint32_t pid, uint64_t *created, void *ctx) {
    char path[32], text[1024], *close, *field;
    size_t got, k;
    FILE *f;
    (void)ctx;
    if (pid == 0) {
        return IBF_PROCESS_GONE;
    }
    snprintf(path, sizeof path, "/proc/%lu/stat", (unsigned long)pid);
    f = fopen(path, "r");
    if (!f) {
        return IBF_PROCESS_GONE;
    }
    got = fread(text, 1, sizeof text - 1U, f);
    fclose(f);
    text[got] = '\0';
    close = strrchr(text, ')');
    if (!close || close[1] != ' ') {
        return IBF_PROCESS_UNKNOWN;
    }
    field = close + 2;
    if (*field == 'Z' || *field == 'X' || *field == 'x') {
        return IBF_PROCESS_GONE;
    }
    for (k = 3; k < 22; k++) {
        field = strchr(field, ' ');
        if (!field) {
            return IBF_PROCESS_UNKNOWN;
        }
        field++;
    }
    *created = 0;
    while (*field >= '0' && *field <= '9') {
        *created = *created * 10U + (uint64_t)(*field - '0');
        field++;
    }
    return IBF_PROCESS_RUNNING;
}
#elif defined(_WIN32)
/** This platform's process probe (Windows, from the <windows.h> the header includes):
 * OpenProcess, GetExitCodeProcess (an exited process is gone), and the creation FILETIME of
 * GetProcessTimes. */
static inline int ibf_process_probe(uint32_t pid, uint64_t *created, void *ctx) {
    FILETIME made, exited, kernel, user;
    DWORD code = 0;
    BOOL got_code, got_times;
    HANDLE h;
    (void)ctx;
    if (pid == 0) {
        return IBF_PROCESS_GONE;
    }
    h = OpenProcess(PROCESS_QUERY_LIMITED_INFORMATION, FALSE, pid);
    if (!h) {
        return GetLastError() == ERROR_ACCESS_DENIED ? IBF_PROCESS_UNKNOWN : IBF_PROCESS_GONE;
    }
    got_code = GetExitCodeProcess(h, &code);
    got_times = GetProcessTimes(h, &made, &exited, &kernel, &user);
    CloseHandle(h);
    if (got_code && code != STILL_ACTIVE) {
        return IBF_PROCESS_GONE;
    }
    if (!got_times) {
        return IBF_PROCESS_UNKNOWN;
    }
    *created = (uint64_t)made.dwHighDateTime << 32 | made.dwLowDateTime;
    return IBF_PROCESS_RUNNING;
}
#else
/** No process probe on this platform (neither Linux nor Windows): every process is unknown,
 * so no row is ever judged stale; pass a probe of your own to register and remove_stale. */
static inline int ibf_process_probe(uint32_t pid, uint64_t *created, void *ctx) {
    (void)pid;
    (void)created;
    (void)ctx;
    return IBF_PROCESS_UNKNOWN;
}
#endif
#if defined(__linux__)
/** How many times an opener looks again, 10 ms apart, at a directory its creator has not
 * finished laying out (its length or magic still 0): abi_runtime's OPEN_TRIES. */
#define IBF_DIRECTORY_OPEN_TRIES 50

/** A directory file this process mapped (Linux): its bytes, their length, and whether this
 * process created the file. ibf_directory_unmap it when done. */
typedef struct ibf_directory_mapping {
    void *base;
    size_t len;
    int created;
} ibf_directory_mapping;

/** Unmaps *map (nothing when it holds no mapping). */
static inline void ibf_directory_unmap(ibf_directory_mapping *map) {
    if (map->base != NULL) {
        (void)munmap(map->base, map->len);
    }
    map->base = NULL;
    map->len = 0;
}

/* Maps the whole file `fd` (none when it is still empty): OK, or OS_ERROR. */
static inline int ibf_directory_map_(int fd, ibf_directory_mapping *map) {
    struct stat st;
    void *at;
    map->base = NULL;
    map->len = 0;
    if (fstat(fd, &st) != 0) {
        return IBF_DIRECTORY_OS_ERROR;
    }
    if (st.st_size <= 0) {
        return IBF_DIRECTORY_OK;
    }
    at = mmap(NULL, (size_t)st.st_size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    if (at == MAP_FAILED) {
        return IBF_DIRECTORY_OS_ERROR;
    }
    map->base = at;
    map->len = (size_t)st.st_size;
    return IBF_DIRECTORY_OK;
}

typedef int (*ibf_directory_fn_)(void *base, size_t len, ibf_directory *out);

/* Open-or-create of the file at `path` holding a directory of `size` bytes new: created
 * owner-only and laid out by `lay_out`, or opened and checked by `check`, looking again 10 ms
 * apart at most OPEN_TRIES times while its creator has not sized it or written its magic; a
 * file removed between the create and the open is created again. On an error nothing stays
 * mapped. */
static inline int ibf_directory_open_or_create_(const char *path, size_t size, ibf_directory_fn_ check, ibf_directory_fn_ lay_out, ibf_directory_mapping *map, ibf_directory *out) {
    int round, tries, fd, rc, e;
    map->base = NULL;
    map->len = 0;
    map->created = 0;
    for (round = 0; round < 3; round++) {
        if (round < 2) {
            fd = open(path, O_RDWR | O_CREAT | O_EXCL, 0600);
            if (fd >= 0) {
                /* 0600 whatever the umask; then sized (zeros), mapped and laid out. */
                if (chmod(path, 0600) != 0 || lseek(fd, (off_t)size - 1, SEEK_SET) < 0 || write(fd, "", 1) != 1
                    || ibf_directory_map_(fd, map) != IBF_DIRECTORY_OK) {
                    e = errno;
                    (void)close(fd);
                    ibf_directory_unmap(map);
                    errno = e;
                    return IBF_DIRECTORY_OS_ERROR;
                }
                (void)close(fd);
                map->created = 1;
                rc = lay_out(map->base, map->len, out);
                if (rc != IBF_DIRECTORY_OK) {
                    ibf_directory_unmap(map);
                }
                return rc;
            }
            if (errno != EEXIST) {
                return IBF_DIRECTORY_OS_ERROR;
            }
        }
        for (tries = 0;; tries++) {
            fd = open(path, O_RDWR);
            if (fd < 0) {
                break;
            }
            rc = ibf_directory_map_(fd, map);
            e = errno;
            (void)close(fd);
            if (rc != IBF_DIRECTORY_OK) {
                errno = e;
                return rc;
            }
            rc = map->base == NULL ? IBF_DIRECTORY_TOO_SMALL : check(map->base, map->len, out);
            if (rc == IBF_DIRECTORY_OK) {
                return rc;
            }
            ibf_directory_unmap(map);
            if ((rc != IBF_DIRECTORY_TOO_SMALL && rc != IBF_DIRECTORY_NOT_READY) || tries == IBF_DIRECTORY_OPEN_TRIES) {
                return rc;
            }
            (void)poll(NULL, 0, 10);
        }
        if (errno != ENOENT) {
            return IBF_DIRECTORY_OS_ERROR;
        }
    }
    return IBF_DIRECTORY_OS_ERROR;
}
#elif defined(_WIN32)
/** How many times an opener looks again, 10 ms apart, at a directory its creator has not
 * finished laying out (its magic still 0): abi_runtime's OPEN_TRIES. */
#define IBF_DIRECTORY_OPEN_TRIES 50

/** A directory section this process mapped (Windows): its view, its length (whole pages when
 * opened), whether this process created the section, and its handle: the section lives while
 * some process holds a handle. ibf_directory_unmap it when done. */
typedef struct ibf_directory_mapping {
    void *base;
    size_t len;
    int created;
    HANDLE handle;
} ibf_directory_mapping;

/** Unmaps *map and closes its handle (nothing when it holds neither). */
static inline void ibf_directory_unmap(ibf_directory_mapping *map) {
    if (map->base != NULL) {
        (void)UnmapViewOfFile(map->base);
    }
    if (map->handle != NULL) {
        (void)CloseHandle(map->handle);
    }
    map->base = NULL;
    map->len = 0;
    map->handle = NULL;
}

typedef int (*ibf_directory_fn_)(void *base, size_t len, ibf_directory *out);

/* The owner-only descriptor of abi_runtime's Mapping::create_named (this user's SID and
 * SYSTEM, all access; no inherited ACE) in *sd, to LocalFree: nonzero, or 0 with
 * GetLastError(). */
static inline int ibf_directory_owner_only_(PSECURITY_DESCRIPTOR *sd) {
    static const char head[] = "D:P(A;;GA;;;", tail[] = ")(A;;GA;;;SY)";
    union {
        TOKEN_USER user;
        unsigned char bytes[256];
    } token_user;
    char sddl[256];
    HANDLE token;
    DWORD size = 0;
    char *sid = NULL;
    size_t n;
    BOOL ok;
    if (!OpenProcessToken(GetCurrentProcess(), TOKEN_QUERY, &token)) {
        return 0;
    }
    ok = GetTokenInformation(token, TokenUser, &token_user, sizeof token_user, &size);
    (void)CloseHandle(token);
    if (!ok || !ConvertSidToStringSidA(token_user.user.User.Sid, &sid)) {
        return 0;
    }
    n = strlen(sid);
    if (sizeof head - 1U + n + sizeof tail > sizeof sddl) {
        (void)LocalFree(sid);
        SetLastError(ERROR_INSUFFICIENT_BUFFER);
        return 0;
    }
    memcpy(sddl, head, sizeof head - 1U);
    memcpy(sddl + sizeof head - 1U, sid, n);
    memcpy(sddl + sizeof head - 1U + n, tail, sizeof tail);
    (void)LocalFree(sid);
    return ConvertStringSecurityDescriptorToSecurityDescriptorA(sddl, SDDL_REVISION_1, sd, NULL) ? 1 : 0;
}

/* Open-or-create of the section `name` holding a directory of `size` bytes new: created
 * owner-only and laid out by `lay_out`, or (ERROR_ALREADY_EXISTS: one atomic call decides)
 * mapped whole and checked by `check`, looked at again 10 ms apart at most OPEN_TRIES times
 * while its creator has not written its magic. On an error nothing stays mapped or open. */
static inline int ibf_directory_open_or_create_named_(const char *name, size_t size, ibf_directory_fn_ check, ibf_directory_fn_ lay_out, ibf_directory_mapping *map, ibf_directory *out) {
    SECURITY_ATTRIBUTES sa;
    MEMORY_BASIC_INFORMATION info;
    DWORD error;
    int rc, tries;
    map->base = NULL;
    map->len = 0;
    map->created = 0;
    map->handle = NULL;
    sa.nLength = sizeof sa;
    sa.lpSecurityDescriptor = NULL;
    sa.bInheritHandle = FALSE;
    if (!ibf_directory_owner_only_(&sa.lpSecurityDescriptor)) {
        return IBF_DIRECTORY_OS_ERROR;
    }
    map->handle = CreateFileMappingA(INVALID_HANDLE_VALUE, &sa, PAGE_READWRITE, (DWORD)((uint64_t)size >> 32), (DWORD)(size & 0xFFFFFFFFU), name);
    error = GetLastError();
    (void)LocalFree(sa.lpSecurityDescriptor);
    if (map->handle == NULL) {
        SetLastError(error);
        return IBF_DIRECTORY_OS_ERROR;
    }
    map->created = error != ERROR_ALREADY_EXISTS;
    map->base = MapViewOfFile(map->handle, FILE_MAP_READ | FILE_MAP_WRITE, 0, 0, 0);
    if (map->base == NULL || VirtualQuery(map->base, &info, sizeof info) == 0) {
        error = GetLastError();
        ibf_directory_unmap(map);
        SetLastError(error);
        return IBF_DIRECTORY_OS_ERROR;
    }
    /* A new section's view is its size; an opened one's, whole pages. */
    map->len = map->created ? size : (size_t)info.RegionSize;
    for (tries = 0;; tries++) {
        rc = map->created ? lay_out(map->base, map->len, out) : check(map->base, map->len, out);
        if (rc == IBF_DIRECTORY_OK) {
            return rc;
        }
        if (map->created || (rc != IBF_DIRECTORY_TOO_SMALL && rc != IBF_DIRECTORY_NOT_READY) || tries == IBF_DIRECTORY_OPEN_TRIES) {
            ibf_directory_unmap(map);
            return rc;
        }
        Sleep(10);
    }
}
#endif

/**
 * The hosts running in this logon session, in a mapping of its own (Local\ibf.directory on
 * Windows, /dev/shm/ibf.directory on Linux): the first host creates it, owner-only. A host
 * registers by compare-and-swap of a free row's state and pid to (claimed, its pid), fills
 * the row in, then moves it to live; it frees its row on exit. A starting host first frees
 * stale rows: claimed or live rows whose process is gone, or whose process was created at
 * another time than process_time (a reused pid). process_time is the process's creation
 * time: on Windows the creation FILETIME of GetProcessTimes; on Linux field 22 of
 * /proc/PID/stat (starttime, clock ticks since boot), which never changes for a live process
 * and orders hosts within a boot, all a directory in /dev/shm outlives. A client lists the
 * live rows, newest process_time first, copying each row and checking its state and pid
 * again
 *
 * Directory `hosts`: its plan for the ibf_directory_* helpers.
 */
static const ibf_directory_plan_ ibf_hosts_plan_ = {
    0U, 4U, 8U, 64U,
    0U, 8U, 16U, 18U, 24U, 32U,
    0x44464249U, 16U, 64U, 0U, 1U, 2U,
    1,
    0U, 9U
};
/** The mapping's name on Windows, and its file on Linux. */
#define IBF_HOSTS_WINDOWS_NAME "Local\\ibf.directory"
#define IBF_HOSTS_LINUX_PATH "/dev/shm/ibf.directory"
/** The bytes a new directory `hosts` takes. */
#define IBF_HOSTS_SIZE 1088U

/** Directory `hosts` in the `len` bytes at `base`, its header checked: 0, or a
 * IBF_DIRECTORY_* error. */
static inline int ibf_hosts_check(void *base, size_t len, ibf_directory *out) {
    return ibf_directory_check_(&ibf_hosts_plan_, base, len, out);
}

/** Lays out a new directory `hosts` in zeroed memory its creator has not shared. */
static inline int ibf_hosts_lay_out(void *base, size_t len, ibf_directory *out) {
    return ibf_directory_lay_out_(&ibf_hosts_plan_, base, len, out);
}
#if defined(__linux__)

/** A host's open of directory `hosts`'s file at `path` (IBF_HOSTS_LINUX_PATH),
 * as abi_runtime's DirectoryMapping::open_or_create: creates it owner-only (0600 whatever the
 * umask) and lays it out, or opens the one another host made, looking again 10 ms apart at
 * most IBF_DIRECTORY_OPEN_TRIES times while its creator has not sized it or written its
 * magic. 0 with *map mapped (map->created says which) and *out its directory; else a
 * IBF_DIRECTORY_* error (IBF_DIRECTORY_OS_ERROR with errno), nothing mapped. */
static inline int ibf_hosts_open_or_create(const char *path, ibf_directory_mapping *map, ibf_directory *out) {
    return ibf_directory_open_or_create_(path, IBF_HOSTS_SIZE, ibf_hosts_check, ibf_hosts_lay_out, map, out);
}
#elif defined(_WIN32)

/** A host's open of directory `hosts`'s named section `name`
 * (IBF_HOSTS_WINDOWS_NAME), as abi_runtime's
 * DirectoryMapping::open_or_create_named: creates it owner-only (this user and SYSTEM) and
 * lays it out, or opens the one another process holds, looking again 10 ms apart at most
 * IBF_DIRECTORY_OPEN_TRIES times while its creator has not written its magic. 0 with
 * *map mapped (map->created says which) and *out its directory; else a IBF_DIRECTORY_*
 * error (IBF_DIRECTORY_OS_ERROR with GetLastError()), nothing mapped. */
static inline int ibf_hosts_open_or_create_named(const char *name, ibf_directory_mapping *map, ibf_directory *out) {
    return ibf_directory_open_or_create_named_(name, IBF_HOSTS_SIZE, ibf_hosts_check, ibf_hosts_lay_out, map, out);
}
#endif

/* ---- The host's service turn (codegen/src/plan/service.rs decides it) ----
 * One call a tick serves every row of session `client`, in this order per row:
 *   1. serve the mailbox through cb->answer (a malformed request too, with no text);
 *   2. drain the log queue into cb->log (at most IBF_HOST_DRAIN_MAX entries);
 *   3. take the draw list through cb->draw;
 *   4. free a row whose client said goodbye;
 *   5. free a row unchanged for the watch's hung time;
 *   6. free an active row whose pid cb->probe says gone (or names another process);
 * and a row is freed by the broken-client policy when its mailbox gives
 * IBF_MAILBOX_SEQUENCE, IBF_MAILBOX_CAPACITY or its draw exchange IBF_EXCHANGE_STATE. A free is always:
 * drain, free, drain, new_reader
 * (the last entries drained, the row freed through the host's handle, the entries pushed
 * meanwhile drained, then a new draw reader made at once: a reader kept past a free refuses
 * the next claim's writer). Each step is callable alone, in this order; a host that frees a
 * row itself calls ibf_host_free_row, never ibf_attached_client_free alone. */

/** Entries a drain takes from one row in one call. */
#define IBF_HOST_DRAIN_MAX 1024U

/** Why a row was freed (ibf_host_free_row's reason, ibf_host_row_done's answer). */
enum {
    IBF_HOST_KEEP = 0,
    IBF_HOST_FREED_CLOSING = 1,
    IBF_HOST_FREED_HUNG = 2,
    IBF_HOST_FREED_DEAD = 3,
    IBF_HOST_FREED_POLICY = 4
};

/** What the host keeps per row, between turns: host-local. */
typedef struct ibf_host_row {
    /** The row's draw reader: made new by the turn after each free. */
    ibf_draw_reader reader;
    /** The claim (generation) and pid the probe last saw running, and its creation time. */
    uint32_t generation;
    uint32_t pid;
    uint64_t created;
    unsigned char probed;
} ibf_host_row;

/** The host's per-tick state: the hung watch, one ibf_host_row per row, and the
 * host's buffers for a request and its answer (as large as the capacities it laid out; a
 * longer request is cut). ibf_host_service_init it before the first turn. */
typedef struct ibf_host_service {
    ibf_client_watch watch;
    ibf_host_row rows[8];
    ibf_log_queue_record record;
    char *request;
    size_t request_cap;
    char *answer;
    size_t answer_cap;
} ibf_host_service;

/** The host's callbacks; any may be NULL (a NULL answer answers every request with status 0
 * and no text; a NULL probe checks no pid). */
typedef struct ibf_host_callbacks {
    void *ctx;
    /** Request `request` (request_len bytes and a NUL; NULL for a malformed one, whose length
     * is past its area) of row `row`: write the answer's text into `answer` (at most
     * answer_cap bytes), its length into *answer_len, and return its status. */
    uint32_t (*answer)(void *ctx, uint32_t row, const char *request, size_t request_len, char *answer, size_t answer_cap, size_t *answer_len);
    /** One entry of row `row`'s queue, in order. */
    void (*log)(void *ctx, uint32_t row, const ibf_log_queue_record *record);
    /** One list of row `row`, taken: read it with ibf_draw_item and _payload. */
    void (*draw)(void *ctx, uint32_t row, const ibf_draw_reader *reader, const ibf_draw_list_header *head);
    /** The process probe (ibf_process_probe, or the host's own), and its ctx. */
    ibf_process_probe_fn probe;
    void *probe_ctx;
} ibf_host_callbacks;

/** What turns did; ibf_host_service_turn adds to it (zero it first). `errors` counts the
 * other results a step met (`last_error` the last: ibf_result_name names it). */
typedef struct ibf_host_counts {
    uint64_t served, malformed, drained, taken;
    uint64_t freed[5]; /* by IBF_HOST_FREED_*: [IBF_HOST_FREED_HUNG] */
    uint64_t errors;
    int last_error;
} ibf_host_counts;

static inline void ibf_host_count_error_(ibf_host_counts *c, int rc) {
    c->errors++;
    c->last_error = rc;
}

/** Makes *s empty: the watch with hung time `hung_ms` (0: the session's), every row's reader
 * new, the host's buffers. */
static inline void ibf_host_service_init(ibf_host_service *s, uint64_t hung_ms, char *request, size_t request_cap, char *answer, size_t answer_cap) {
    uint32_t row;
    memset(s, 0, sizeof *s);
    ibf_client_watch_init(&s->watch, hung_ms);
    for (row = 0; row < 8U; row++) {
        ibf_draw_reader_init(&s->rows[row].reader);
    }
    s->request = request;
    s->request_cap = request_cap;
    s->answer = answer;
    s->answer_cap = answer_cap;
}

/** Drains row `row`'s queue into cb->log: at most IBF_HOST_DRAIN_MAX entries; the count of
 * entries, errors into *c. */
static inline void ibf_host_drain_row(const ibf_attached *a, ibf_host_service *s, const ibf_host_callbacks *cb, uint32_t row, ibf_host_counts *c) {
    void *q = row < 8U ? (void *)ibf_attached_client_blocks_log_queue(a, row) : NULL;
    size_t len;
    uint32_t n;
    int rc = IBF_EMPTY;
    if (q == NULL) {
        return;
    }
    len = (size_t)ibf_attached_client_blocks_log_queue_size(a, row);
    for (n = 0; n < IBF_HOST_DRAIN_MAX; n++) {
        rc = ibf_log_queue_pop_laid_out(q, len, ibf_attached_laid_out(a, q), &s->record);
        if (rc != IBF_OK) {
            break;
        }
        c->drained++;
        if (cb != NULL && cb->log != NULL) {
            cb->log(cb->ctx, row, &s->record);
        }
    }
    if (rc != IBF_OK && rc != IBF_EMPTY) {
        ibf_host_count_error_(c, rc);
    }
}

/** Frees row `row` for `reason` (IBF_HOST_FREED_*): drain, free, drain, new_reader.
 * IBF_OK (counted in c->freed[reason]) or the free's error (IBF_CONTENDED: a later free
 * goes on). */
static inline int ibf_host_free_row(const ibf_attached *a, ibf_host_service *s, const ibf_host_callbacks *cb, uint32_t row, int reason, ibf_host_counts *c) {
    int rc = IBF_OK;
    if (row >= 8U) {
        return IBF_SESSION_ROW;
    }
    ibf_host_drain_row(a, s, cb, row, c);
    rc = ibf_attached_client_free(a, row, NULL);
    if (rc != IBF_OK) {
        ibf_host_count_error_(c, rc);
        return rc;
    }
    ibf_host_drain_row(a, s, cb, row, c);
    ibf_draw_reader_init(&s->rows[row].reader);
    s->rows[row].probed = 0;
    if (reason > 0 && reason <= 4) {
        c->freed[reason]++;
    }
    return IBF_OK;
}

/** Serves row `row`'s mailbox: a waiting request to cb->answer, answered with its status; a
 * malformed one (its length past its area) with request NULL. IBF_HOST_FREED_POLICY when
 * the mailbox gives IBF_MAILBOX_SEQUENCE IBF_MAILBOX_CAPACITY (free the row), else IBF_HOST_KEEP. */
static inline int ibf_host_serve_row(const ibf_attached *a, ibf_host_service *s, const ibf_host_callbacks *cb, uint32_t row, ibf_host_counts *c) {
    void *box = row < 8U ? (void *)ibf_attached_client_blocks_mailbox(a, row) : NULL;
    const unsigned char *laid_out;
    size_t len, n = 0, answer_len = 0;
    uint32_t seq = 0, status = 0;
    int rc, malformed;
    if (box == NULL) {
        return IBF_HOST_KEEP;
    }
    len = (size_t)ibf_attached_client_blocks_mailbox_size(a, row);
    laid_out = ibf_attached_laid_out(a, box);
    rc = ibf_mailbox_serve_begin_laid_out(box, len, laid_out, s->request, s->request_cap, &n, &seq);
    if (rc == IBF_PENDING) {
        return IBF_HOST_KEEP;
    }
    if (rc == IBF_MAILBOX_SEQUENCE) {
        return IBF_HOST_FREED_POLICY;
    }
    if (rc == IBF_MAILBOX_CAPACITY) {
        return IBF_HOST_FREED_POLICY;
    }
    malformed = rc == IBF_MAILBOX_LENGTH;
    if (rc != IBF_OK && !malformed) {
        ibf_host_count_error_(c, rc);
        return IBF_HOST_KEEP;
    }
    if (cb != NULL && cb->answer != NULL) {
        status = cb->answer(cb->ctx, row, malformed ? NULL : s->request, malformed ? 0U : n, s->answer, s->answer_cap, &answer_len);
    }
    if (answer_len > s->answer_cap) {
        answer_len = s->answer_cap;
    }
    rc = ibf_mailbox_serve_answer_laid_out(box, len, laid_out, seq, status, s->answer, answer_len);
    if (rc != IBF_OK) {
        ibf_host_count_error_(c, rc);
    } else if (malformed) {
        c->malformed++;
    } else {
        c->served++;
    }
    return IBF_HOST_KEEP;
}

/** Takes row `row`'s draw list through cb->draw. IBF_HOST_FREED_POLICY when the exchange
 * gives IBF_EXCHANGE_STATE (a broken writer: free the row), else IBF_HOST_KEEP. */
static inline int ibf_host_take_row(const ibf_attached *a, ibf_host_service *s, const ibf_host_callbacks *cb, uint32_t row, ibf_host_counts *c) {
    void *draw = row < 8U ? (void *)ibf_attached_bot_blocks_draw(a, row) : NULL;
    ibf_draw_list_header head;
    int rc;
    if (draw == NULL) {
        return IBF_HOST_KEEP;
    }
    rc = ibf_draw_take_laid_out(&s->rows[row].reader, draw, (size_t)ibf_attached_bot_blocks_draw_size(a, row), ibf_attached_laid_out(a, draw), &head);
    if (rc == IBF_OK) {
        c->taken++;
        if (cb != NULL && cb->draw != NULL) {
            cb->draw(cb->ctx, row, &s->rows[row].reader, &head);
        }
        return IBF_HOST_KEEP;
    }
    if (rc == IBF_EXCHANGE_STATE) {
        return IBF_HOST_FREED_POLICY;
    }
    if (rc != IBF_EMPTY) {
        ibf_host_count_error_(c, rc);
    }
    return IBF_HOST_KEEP;
}

/** Whether row `row` is done, by the plan's order: IBF_HOST_FREED_CLOSING (its client said
 * goodbye), _HUNG (unchanged for the watch's hung time at the host's monotonic `now_ns`),
 * _DEAD (active, and cb->probe says its pid gone, or running but created at another time
 * than the first probe of this claim saw), else IBF_HOST_KEEP. */
static inline int ibf_host_row_done(const ibf_attached *a, ibf_host_service *s, const ibf_host_callbacks *cb, uint32_t row, uint64_t now_ns) {
    const void *header = (const void *)ibf_attached_header(a);
    size_t len = (size_t)ibf_attached_header_size(a);
    const unsigned char *at = ibf_client_row_(header, len, row);
    const ibf_client_entry *entry = (const ibf_client_entry *)(const void *)at;
    uint32_t state;
    if (at == NULL) {
        return IBF_HOST_KEEP;
    }
    state = (uint32_t)ibf_client_entry_load_state(entry);
    if (state == 3U) {
        return IBF_HOST_FREED_CLOSING;
    }
    if (ibf_client_hung(header, len, &s->watch, row, now_ns)) {
        return IBF_HOST_FREED_HUNG;
    }
    if (state == 2U && cb != NULL && cb->probe != NULL) {
        ibf_host_row *r = &s->rows[row];
        uint32_t pid = ibf_client_entry_load_pid(entry);
        uint32_t generation = ibf_client_entry_load_generation(entry);
        uint64_t created = 0;
        int probe;
        if (pid != 0U) {
            probe = cb->probe(pid, &created, cb->probe_ctx);
            if (probe == IBF_PROCESS_GONE) {
                return IBF_HOST_FREED_DEAD;
            }
            if (probe == IBF_PROCESS_RUNNING) {
                if (r->probed && r->generation == generation && r->pid == pid && r->created != created) {
                    return IBF_HOST_FREED_DEAD;
                }
                r->probed = 1;
                r->generation = generation;
                r->pid = pid;
                r->created = created;
            }
        }
    }
    return IBF_HOST_KEEP;
}

/** One service turn over every row, at the host's monotonic `now_ns`: per row serve, drain, take, closing, hung, dead, each
 * row freed (drain, free, drain, new reader) by the first step that says so; the counts added
 * to *c. IBF_OK, or IBF_SESSION_ROW for a handle without the session's table. */
static inline int ibf_host_service_turn(const ibf_attached *a, ibf_host_service *s, const ibf_host_callbacks *cb, uint64_t now_ns, ibf_host_counts *c) {
    uint32_t row;
    if (ibf_attached_header(a) == NULL) {
        return IBF_SESSION_ROW;
    }
    for (row = 0; row < 8U; row++) {
        int reason = IBF_HOST_KEEP;
        reason = ibf_host_serve_row(a, s, cb, row, c);
        if (reason == IBF_HOST_KEEP) {
            ibf_host_drain_row(a, s, cb, row, c);
        }
        if (reason == IBF_HOST_KEEP) {
            reason = ibf_host_take_row(a, s, cb, row, c);
        }
        if (reason == IBF_HOST_KEEP) {
            reason = ibf_host_row_done(a, s, cb, row, now_ns);
        }
        if (reason != IBF_HOST_KEEP) {
            (void)ibf_host_free_row(a, s, cb, row, reason, c);
        }
    }
    return IBF_OK;
}

/** The host's reload (ibf_attached_client_reload) with a new reader for every row
 * it freed; its answer and *host_generation as that call's. */
static inline int ibf_host_service_reload(const ibf_attached *a, ibf_host_service *s, uint32_t *host_generation) {
    uint32_t was[8], row;
    int rc;
    memset(was, 0, sizeof was);
    rc = ibf_attached_client_reload(a, host_generation, was, NULL);
    for (row = 0; row < 8U; row++) {
        if (was[row] != 0U) {
            ibf_draw_reader_init(&s->rows[row].reader);
            s->rows[row].probed = 0;
        }
    }
    return rc;
}

/* ---- Re-layout (codegen/src/plan/relayout.rs decides what it keeps) ---- */

/* One word of `width` bytes (1, 2, 4 or 8) of the live header, with one acquire load of its size. */
static inline uint64_t ibf_relayout_load_(const unsigned char *at, unsigned width) {
    switch (width) {
    case 1U: return ibf_live_load_acquire_u8_(at);
    case 2U: return ibf_live_load_acquire_u16_(at);
    case 4U: return ibf_live_load_acquire_u32_(at);
    default: return ibf_live_load_acquire_u64_(at);
    }
}

/* Writes the low `width` bytes of `value`, little-endian, at `at` of an image (not shared yet). */
static inline void ibf_relayout_put_(unsigned char *at, unsigned width, uint64_t value) {
    unsigned i;
    for (i = 0; i < width; i++) {
        at[i] = (unsigned char)(value >> (8U * i));
    }
}

/** Copies the host's own fields of the live mapping (len bytes) into a new image (n bytes,
 * from ibf_lay_out, before it is produced), when the mapping holds an image (its
 * generation is not 0; a new mapping keeps the image's values). Kept, each word read with
 * one load of its own size:
 *   controls (2 of 1 bytes at 1280)
 *   controls (7 of 2 bytes at 1282)
 *   run_mode, sim_state (2 of 1 bytes at 1296)
 *   lockstep_timeout_ms (1 of 4 bytes at 1300)
 * and each mark of pad_owner that is neither a row (below 8: a claim, which
 * the re-layout frees) nor unbound (255): the host's own marks.
 * Nothing else: geometry, the handshake and identity, the region table, the sessions' rows and
 * words and the rings' heads are the new image's. IBF_PRODUCE_OK, or
 * IBF_PRODUCE_BUFFER_TOO_SHORT (nothing written) when either is under 1304 bytes. */
static inline int ibf_relayout_keep(const void *mapping, size_t len, void *image, size_t n) {
    static const uint32_t runs[][3] = {
        {1280U, 1U, 2U},
        {1282U, 2U, 7U},
        {1296U, 1U, 2U},
        {1300U, 4U, 1U},
    };
    const unsigned char *m = (const unsigned char *)mapping;
    unsigned char *to = (unsigned char *)image;
    size_t r;
    uint32_t i;
    if (m == NULL || to == NULL || (uint64_t)len < 1304U || (uint64_t)n < 1304U) {
        return IBF_PRODUCE_BUFFER_TOO_SHORT;
    }
    if (ibf_relayout_load_(m + 20, 4U) == 0U) {
        return IBF_PRODUCE_OK;
    }
    for (r = 0; r < sizeof runs / sizeof runs[0]; r++) {
        for (i = 0; i < runs[r][2]; i++) {
            size_t at = (size_t)runs[r][0] + (size_t)i * runs[r][1];
            ibf_relayout_put_(to + at, runs[r][1], ibf_relayout_load_(m + at, runs[r][1]));
        }
    }
    for (i = 0; i < 4U; i += 4U) {
        uint64_t word = ibf_relayout_load_(m + 164U + i, 4U);
        unsigned k;
        for (k = 0; k < 4U; k++) {
            uint64_t mark = (word >> (8U * k)) & (~0ULL >> 56U);
            if (mark >= 8U && mark != 255U) {
                ibf_relayout_put_(to + 164U + i + k * 1U, 1U, mark);
            }
        }
    }
    return IBF_PRODUCE_OK;
}

/** A re-layout in one call: ibf_relayout_keep from the live mapping into the new image,
 * then ibf_produce_attached of it over the same mapping (its generation past the
 * mapping's, every session row freed). The host's own fields survive; the rest is the new
 * image's. */
static inline int ibf_relayout(void *mapping, size_t len, void *image, size_t n, ibf_attached *out, ibf_attach_error *err) {
    int rc = ibf_relayout_keep(mapping, len, image, n);
    if (rc != IBF_PRODUCE_OK) {
        return rc;
    }
    return ibf_produce_attached(mapping, len, image, n, out, err);
}

/** The snake_case name of any code a helper of this header returns: the numbers of the
 * families (protocol results, attach checks, produce errors, directory results, process
 * probe answers) are apart, so one name fits each number wherever it came from. "unknown"
 * for a number no helper returns. */
static inline const char *ibf_result_name(int code) {
    switch (code) {
    case IBF_OK: return "ok";
    case IBF_CONTENDED: return "contended";
    case IBF_EMPTY: return "empty";
    case IBF_TOO_SHORT: return "too_short";
    case IBF_DROPPED: return "dropped";
    case IBF_LAPPED: return "lapped";
    case IBF_PENDING: return "pending";
    case IBF_DISCONNECTED: return "session_disconnected";
    case IBF_RELOADED: return "session_reloaded";
    case IBF_HOST_EXITING: return "session_host_exiting";
    case IBF_NOT_FREE: return "not_free";
    case IBF_QUEUE_CAPACITY: return "queue_capacity";
    case IBF_QUEUE_POSITIONS: return "queue_positions";
    case IBF_QUEUE_ENTRY_SIZE: return "queue_entry_size";
    case IBF_QUEUE_BAD_ENTRY: return "queue_bad_entry";
    case IBF_RING_CAPACITY: return "ring_capacity";
    case IBF_RING_POSITIONS: return "ring_positions";
    case IBF_RING_ENTRY_SIZE: return "ring_entry_size";
    case IBF_RING_BAD_ENTRY: return "ring_bad_entry";
    case IBF_MAILBOX_CAPACITY: return "mailbox_capacity";
    case IBF_MAILBOX_LENGTH: return "mailbox_length";
    case IBF_MAILBOX_BUSY: return "mailbox_busy";
    case IBF_MAILBOX_TOO_LONG: return "mailbox_too_long";
    case IBF_MAILBOX_SEQUENCE: return "mailbox_sequence";
    case IBF_EXCHANGE_GEOMETRY: return "exchange_geometry";
    case IBF_EXCHANGE_STATE: return "exchange_state";
    case IBF_EXCHANGE_LIST_LENGTH: return "exchange_list_length";
    case IBF_SESSION_ROW: return "session_row";
    case IBF_EXCHANGE_CONTENDED: return "exchange_contended";
    case IBF_ENTRY_PART_TOO_LONG: return "entry_part_too_long";
    case IBF_ENTRY_PART_PAST_ENTRY: return "entry_part_past_entry";
    case IBF_ATTACH_MAPPING_TOO_SHORT: return "mapping_too_short";
    case IBF_ATTACH_BAD_MAGIC: return "bad_magic";
    case IBF_ATTACH_MAJOR_MISMATCH: return "major_mismatch";
    case IBF_ATTACH_HEADER_TOO_SMALL: return "header_too_small";
    case IBF_ATTACH_HEADER_BEYOND_MAPPING: return "header_beyond_mapping";
    case IBF_ATTACH_EXTENT_BEYOND_MAPPING: return "extent_beyond_mapping";
    case IBF_ATTACH_EXTENT_TOO_SMALL: return "extent_too_small";
    case IBF_ATTACH_EXTENT_BEYOND_BLOCK: return "extent_beyond_block";
    case IBF_ATTACH_TOO_MANY_ROWS: return "too_many_rows";
    case IBF_ATTACH_REGION_MISSING: return "region_missing";
    case IBF_ATTACH_REGION_OUT_OF_BOUNDS: return "region_out_of_bounds";
    case IBF_ATTACH_REGION_MISALIGNED: return "region_misaligned";
    case IBF_ATTACH_REGION_TOO_SMALL: return "region_too_small";
    case IBF_ATTACH_REGIONS_OVERLAP: return "regions_overlap";
    case IBF_ATTACH_HOST_NOT_RUNNING: return "host_not_running";
    case IBF_ATTACH_HOST_RELOADED: return "host_reloaded";
    case IBF_ATTACH_GEOMETRY_MISMATCH: return "geometry_mismatch";
    case IBF_ATTACH_GEOMETRY_ZERO: return "geometry_zero";
    case IBF_ATTACH_GEOMETRY_MISALIGNED: return "geometry_misaligned";
    case IBF_ATTACH_GEOMETRY_TOO_SMALL: return "geometry_too_small";
    case IBF_ATTACH_GEOMETRY_TOO_LARGE: return "geometry_too_large";
    case IBF_PRODUCE_UNKNOWN_GEOMETRY: return "unknown_geometry";
    case IBF_PRODUCE_GEOMETRY_NEEDED: return "geometry_needed";
    case IBF_PRODUCE_TOO_LARGE: return "too_large";
    case IBF_PRODUCE_BLOCK_TOO_SMALL: return "block_too_small";
    case IBF_PRODUCE_BUFFER_TOO_SHORT: return "buffer_too_short";
    case IBF_DIRECTORY_TOO_SMALL: return "directory_too_small";
    case IBF_DIRECTORY_NOT_READY: return "directory_not_ready";
    case IBF_DIRECTORY_BAD_MAGIC: return "directory_bad_magic";
    case IBF_DIRECTORY_BAD_ENTRY_SIZE: return "directory_bad_entry_size";
    case IBF_DIRECTORY_BAD_ENTRY_COUNT: return "directory_bad_entry_count";
    case IBF_DIRECTORY_FULL: return "directory_full";
    case IBF_DIRECTORY_VERSION_TOO_LONG: return "directory_version_too_long";
    case IBF_DIRECTORY_OS_ERROR: return "directory_os_error";
    case IBF_PROCESS_GONE: return "process_gone";
    case IBF_PROCESS_RUNNING: return "process_running";
    case IBF_PROCESS_UNKNOWN: return "process_unknown";
    default: return "unknown";
    }
}

#ifdef __cplusplus
} /* extern "C" */
#if defined(__GNUC__)
#pragma GCC diagnostic pop
#endif
#endif

#undef IBF_STATIC_ASSERT_
#undef IBF_ALIGNOF_
#undef IBF_ALIGNAS_

#endif /* IBF_BRIDGE_H_ */
