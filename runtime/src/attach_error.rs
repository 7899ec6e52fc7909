//! Why attach refused a mapping, or a record reader its bytes: one variant per check of
//! `codegen/ATTACH.md`, each with what was expected and what was found.

use core::fmt;

/// A failed attach check. [`AttachError::check`] is its snake_case name, the same in the C
/// helpers and the Python module.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum AttachError {
    /// The mapping (or record) is shorter than the bytes every producer writes.
    MappingTooShort {
        /// Bytes needed.
        expected: u64,
        /// Bytes given.
        found: u64,
    },
    /// The magic field does not hold the schema's constant.
    BadMagic {
        /// The constant.
        expected: u64,
        /// The field.
        found: u64,
    },
    /// The producer's major version differs from ours.
    MajorMismatch {
        /// Ours.
        expected: u64,
        /// The producer's.
        found: u64,
    },
    /// The header size is smaller than the bytes every producer writes.
    HeaderTooSmall {
        /// At least.
        expected: u64,
        /// The header size field.
        found: u64,
    },
    /// The header size is larger than the mapping.
    HeaderBeyondMapping {
        /// The mapping's length: at most.
        expected: u64,
        /// The header size field.
        found: u64,
    },
    /// The image's extent (total size) is larger than the mapping.
    ExtentBeyondMapping {
        /// The mapping's length: at most.
        expected: u64,
        /// The extent field.
        found: u64,
    },
    /// An extent is smaller than its header.
    ExtentTooSmall {
        /// The block, or empty for the image.
        region: String,
        /// At least.
        expected: u64,
        /// The extent field.
        found: u64,
    },
    /// A block's extent is larger than the stride between blocks.
    ExtentBeyondBlock {
        /// The block, such as `bot_blocks[3]`.
        region: String,
        /// The stride: at most.
        expected: u64,
        /// The extent field.
        found: u64,
    },
    /// A table's row count is larger than the table.
    TooManyRows {
        /// The block, or empty for the image's table.
        region: String,
        /// The table's rows: at most.
        expected: u64,
        /// The row count field.
        found: u64,
    },
    /// A region that this producer must provide is absent.
    RegionMissing {
        /// Such as `log_ring` or `client_blocks[2].pad_input`.
        region: String,
    },
    /// A region does not fit inside its image or block.
    RegionOutOfBounds {
        /// The region.
        region: String,
        /// Its offset, from the start of its image or block.
        offset: u64,
        /// Its size.
        size: u64,
        /// The bytes of its image or block.
        limit: u64,
    },
    /// A region does not start at an address aligned for what it holds.
    RegionMisaligned {
        /// The region.
        region: String,
        /// Its offset, from the start of its image or block.
        offset: u64,
        /// The alignment it needs.
        align: u64,
    },
    /// A region is smaller than what it holds.
    RegionTooSmall {
        /// The region.
        region: String,
        /// At least.
        expected: u64,
        /// Its size.
        found: u64,
    },
    /// Two regions (or a region and its table's header) share bytes.
    RegionsOverlap {
        /// The later region.
        region: String,
        /// The region or header it overlaps.
        other: String,
    },
    /// The writer has not finished its tables (or is leaving): try again.
    HostNotRunning {
        /// The state that means running.
        expected: u64,
        /// The state field.
        found: u64,
    },
    /// The writer reloaded (its generation changed, or it left running) while attach read
    /// its tables: try again.
    HostReloaded {
        /// The generation (or state) attach started with.
        expected: u64,
        /// The one it ended with.
        found: u64,
    },
    /// A geometry field the views cannot follow differs from the schema's number.
    GeometryMismatch {
        /// Such as `bridge_header.max_clients`.
        region: String,
        /// The schema's value.
        expected: u64,
        /// The field.
        found: u64,
    },
    /// A followed geometry field is 0.
    GeometryZero {
        /// The field.
        region: String,
    },
    /// A followed geometry field is not a multiple of the alignment its contents need.
    GeometryMisaligned {
        /// The field.
        region: String,
        /// The alignment.
        expected: u64,
        /// The field.
        found: u64,
    },
    /// A followed geometry field is smaller than the schema's types need.
    GeometryTooSmall {
        /// The field.
        region: String,
        /// At least.
        expected: u64,
        /// The field.
        found: u64,
    },
    /// The region the followed geometry sizes is smaller than it asks for.
    GeometryTooLarge {
        /// The region.
        region: String,
        /// The region's size: at most.
        expected: u64,
        /// The bytes the writer's geometry asks for.
        found: u64,
    },
}

impl AttachError {
    /// The check's snake_case name, as in `codegen/ATTACH.md`.
    pub fn check(&self) -> &'static str {
        match self {
            AttachError::MappingTooShort { .. } => "mapping_too_short",
            AttachError::BadMagic { .. } => "bad_magic",
            AttachError::MajorMismatch { .. } => "major_mismatch",
            AttachError::HeaderTooSmall { .. } => "header_too_small",
            AttachError::HeaderBeyondMapping { .. } => "header_beyond_mapping",
            AttachError::ExtentBeyondMapping { .. } => "extent_beyond_mapping",
            AttachError::ExtentTooSmall { .. } => "extent_too_small",
            AttachError::ExtentBeyondBlock { .. } => "extent_beyond_block",
            AttachError::TooManyRows { .. } => "too_many_rows",
            AttachError::RegionMissing { .. } => "region_missing",
            AttachError::RegionOutOfBounds { .. } => "region_out_of_bounds",
            AttachError::RegionMisaligned { .. } => "region_misaligned",
            AttachError::RegionTooSmall { .. } => "region_too_small",
            AttachError::RegionsOverlap { .. } => "regions_overlap",
            AttachError::HostNotRunning { .. } => "host_not_running",
            AttachError::HostReloaded { .. } => "host_reloaded",
            AttachError::GeometryMismatch { .. } => "geometry_mismatch",
            AttachError::GeometryZero { .. } => "geometry_zero",
            AttachError::GeometryMisaligned { .. } => "geometry_misaligned",
            AttachError::GeometryTooSmall { .. } => "geometry_too_small",
            AttachError::GeometryTooLarge { .. } => "geometry_too_large",
        }
    }

    /// Whether attaching again later may succeed: the writer was starting, or reloaded.
    pub fn is_retryable(&self) -> bool {
        matches!(
            self,
            AttachError::HostNotRunning { .. } | AttachError::HostReloaded { .. }
        )
    }

    /// The region the check failed on, or `""`.
    pub fn region(&self) -> &str {
        match self {
            AttachError::ExtentTooSmall { region, .. }
            | AttachError::ExtentBeyondBlock { region, .. }
            | AttachError::TooManyRows { region, .. }
            | AttachError::RegionMissing { region }
            | AttachError::RegionOutOfBounds { region, .. }
            | AttachError::RegionMisaligned { region, .. }
            | AttachError::RegionTooSmall { region, .. }
            | AttachError::RegionsOverlap { region, .. }
            | AttachError::GeometryMismatch { region, .. }
            | AttachError::GeometryZero { region }
            | AttachError::GeometryMisaligned { region, .. }
            | AttachError::GeometryTooSmall { region, .. }
            | AttachError::GeometryTooLarge { region, .. } => region,
            _ => "",
        }
    }
}

impl fmt::Display for AttachError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "attach: {}: ", self.check())?;
        let whose = |region: &str| {
            if region.is_empty() {
                String::new()
            } else {
                format!("{region}: ")
            }
        };
        match self {
            AttachError::MappingTooShort { expected, found } => write!(
                f,
                "{found} bytes given, expected at least {expected} (the bytes every producer writes)"
            ),
            AttachError::BadMagic { expected, found } => {
                write!(f, "expected {expected:#x}, found {found:#x}")
            }
            AttachError::MajorMismatch { expected, found } => {
                write!(f, "major version: expected {expected}, found {found}")
            }
            AttachError::HeaderTooSmall { expected, found } => {
                write!(f, "header size {found}, expected at least {expected}")
            }
            AttachError::HeaderBeyondMapping { expected, found } => write!(
                f,
                "header size {found}, expected at most {expected} (the mapping's length)"
            ),
            AttachError::ExtentBeyondMapping { expected, found } => write!(
                f,
                "total size {found}, expected at most {expected} (the mapping's length)"
            ),
            AttachError::ExtentTooSmall {
                region,
                expected,
                found,
            } => write!(
                f,
                "{}size {found}, expected at least {expected} (its header)",
                whose(region)
            ),
            AttachError::ExtentBeyondBlock {
                region,
                expected,
                found,
            } => write!(
                f,
                "{region}: size {found}, expected at most {expected} (the stride between blocks)"
            ),
            AttachError::TooManyRows {
                region,
                expected,
                found,
            } => write!(
                f,
                "{}row count {found}, expected at most {expected}",
                whose(region)
            ),
            AttachError::RegionMissing { region } => {
                write!(f, "{region} is absent (size 0), expected present")
            }
            AttachError::RegionOutOfBounds {
                region,
                offset,
                size,
                limit,
            } => write!(
                f,
                "{region} at offset {offset} with {size} bytes ends past {limit}, expected inside"
            ),
            AttachError::RegionMisaligned {
                region,
                offset,
                align,
            } => write!(
                f,
                "{region} at offset {offset}, expected a multiple of {align}"
            ),
            AttachError::RegionTooSmall {
                region,
                expected,
                found,
            } => write!(f, "{region} is {found} bytes, expected at least {expected}"),
            AttachError::RegionsOverlap { region, other } => {
                write!(f, "{region} overlaps {other}, expected apart")
            }
            AttachError::HostNotRunning { expected, found } => write!(
                f,
                "host state {found}, expected {expected} (running); the host is starting or leaving: attach again"
            ),
            AttachError::HostReloaded { expected, found } => write!(
                f,
                "host generation (or state) changed from {expected} to {found} during attach: attach again"
            ),
            AttachError::GeometryMismatch {
                region,
                expected,
                found,
            } => write!(f, "{region} is {found}, expected {expected}"),
            AttachError::GeometryZero { region } => {
                write!(f, "{region} is 0, expected at least 1")
            }
            AttachError::GeometryMisaligned {
                region,
                expected,
                found,
            } => write!(f, "{region} is {found}, expected a multiple of {expected}"),
            AttachError::GeometryTooSmall {
                region,
                expected,
                found,
            } => write!(f, "{region} is {found}, expected at least {expected}"),
            AttachError::GeometryTooLarge {
                region,
                expected,
                found,
            } => write!(
                f,
                "{region}: the host's geometry asks for {found} bytes, expected at most {expected} (the region's size)"
            ),
        }
    }
}

impl std::error::Error for AttachError {}
