//! What the tests (codegen/tests and the bridge's `suite`) reach below the public API: the
//! stages and backends, by the paths the crate uses for them. Hidden from the docs and no part
//! of the published API: anything here may change in any release.

/// The diagnostics' helpers.
pub mod diagnostics {
    pub use crate::diagnostics::{MAX_SHOWN, display_path, line_col, one_line, render_warnings};
}

/// The starter schema of `abi-codegen init`.
pub mod init {
    pub use crate::init::{Kind, starter_schema};
}

/// `abi-codegen inspect`'s decoding.
#[cfg(feature = "cli")]
pub mod inspect {
    pub use crate::inspect::{
        AttachSpecs, Decoded, Extent, FileInspection, Inspection, Level, Plan, SeekInspection,
        decode, find_file, find_layout, inspect, inspect_bytes, inspect_file, inspect_image,
        parse_keys, render_dump, render_file_dump, render_file_issues, render_file_json,
        render_issues, render_json, seek_records,
    };
}

/// The lowered schema's types.
pub mod ir {
    pub use crate::ir::{LayoutId, ProtocolId, Version, VersionPolicy};

    /// Access kinds.
    pub mod access {
        pub use crate::ir::access::{AccessKind, RingKind};
    }
    /// Attach declarations.
    pub mod attach {
        pub use crate::ir::attach::Holds;
    }
    /// Names.
    pub mod names {
        pub use crate::ir::names::camel;
    }
    /// Protocols.
    pub mod protocol {
        pub use crate::ir::protocol::ExchangeStart;
    }
}

/// The backends.
pub mod language_backend {
    pub use crate::language_backend::{RenderError, generate_all, generated_line};

    /// The C header.
    #[cfg(feature = "text")]
    pub mod c {
        pub use crate::language_backend::c::{c_field_name, c_type_name, render_c_header};
    }
    /// The markdown reference.
    #[cfg(feature = "text")]
    pub mod markdown {
        pub use crate::language_backend::markdown::render_markdown;
    }
    /// The Python module.
    #[cfg(feature = "text")]
    pub mod python {
        pub use crate::language_backend::python::{
            PYTHON_CAMEL_BUILTINS, PYTHON_KEYWORDS, python_type_name, render_python,
            render_python_stub,
        };
    }
    /// The Rust module.
    pub mod rust {
        pub use crate::language_backend::rust::{RUNTIME_REQUIREMENT, expand_rust, rust_ident};
    }
    /// The text templates.
    #[cfg(feature = "text")]
    pub mod text {
        pub use crate::language_backend::text::*;
    }
    /// The schema's own `[[template]]` targets.
    #[cfg(feature = "text")]
    pub mod user_template {
        pub use crate::language_backend::user_template::{
            TemplateError, UserTemplateFailure, render_user_template, render_user_templates,
            template_context,
        };
    }
}

/// The layout stage.
pub mod layout {
    pub use crate::layout::compute_layout;
}

/// The lowering stage.
pub mod lower {
    pub use crate::lower::lower_schema;
}

/// The parse stage.
pub mod parse {
    pub use crate::parse::parse_schema;
}

/// The plans the backends print.
pub mod plan {
    /// Attach plans.
    pub mod attach {
        pub use crate::plan::attach::{Contents, NeedPlan, Rule, Word};
    }
    /// Sessions.
    pub mod session {
        pub use crate::plan::session::owned_blocks;
    }
    /// Retry counts.
    pub mod tries {
        pub use crate::plan::tries::{DEFAULT_TRIES, HOST_TRIES};
    }
    /// Words.
    pub mod words {
        pub use crate::plan::words::lane;
    }
}

/// `abi-codegen layout`'s report.
#[cfg(feature = "text")]
pub mod report {
    pub use crate::report::{LAYOUT_FORMAT_VERSION, layout_json, layout_table};
}

/// The one module that touches the disk.
pub mod write {
    pub use crate::write::*;
}
