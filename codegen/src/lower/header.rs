//! The `[abi]` table (name, version, c_prefix, byte_order) and every `since` version.

use std::fmt::Display;

use toml::Spanned;

use super::context::{Lower, text};
use crate::ir::{Abi, PerStruct, Version};
use crate::parse::RawSchema;

impl Lower<'_> {
    pub(super) fn lower_since(
        &mut self,
        since: &Option<Spanned<String>>,
        abi_version: Version,
        what: &dyn Display,
    ) -> Option<Version> {
        let s = since.as_ref()?;
        match Version::parse(s.get_ref()) {
            None => {
                self.errors.error_help(
                    &self.inner(s),
                    format!("{what}: `since = \"{}\"` is not a version", s.get_ref()),
                    "write the ABI version that added it as MAJOR.MINOR, such as \"0.6\"",
                );
                None
            }
            Some(v) if v > abi_version => {
                self.errors.error_help(
                    &self.inner(s),
                    format!(
                        "{what}: `since = \"{v}\"` is later than the ABI version {abi_version}"
                    ),
                    format!("raise `version` in [abi] to \"{v}\", or correct `since`"),
                );
                None
            }
            Some(v) => Some(v),
        }
    }

    pub(super) fn lower_abi_header(&mut self, raw: &RawSchema) -> Abi {
        let a = raw.abi.get_ref();
        self.check_name(&a.name, &"abi name");
        let version = match Version::parse(a.version.get_ref()) {
            Some(v) if v.major > u32::from(u16::MAX) || v.minor > u32::from(u16::MAX) => {
                self.errors.error_help(
                    &self.inner(&a.version),
                    format!(
                        "abi version `{v}`: its major and minor numbers must each be at most 65535"
                    ),
                    "the targets hold them as 16-bit numbers (`ABI_VERSION_MAJOR: u16` in Rust), as a header field would",
                );
                // Still check `since` against it, so that each mistake is reported once.
                v
            }
            Some(v) => v,
            None => {
                self.errors.error_help(
                    &self.inner(&a.version),
                    format!("abi version `{}` is not MAJOR.MINOR", a.version.get_ref()),
                    "write it as \"0.9\"",
                );
                // Unknown: check no `since` against it, so that one mistake makes one error.
                Version {
                    major: u32::MAX,
                    minor: u32::MAX,
                }
            }
        };
        let prefix = a.c_prefix.get_ref();
        let prefix_ok = prefix.starts_with(|c: char| c.is_ascii_lowercase())
            && prefix
                .bytes()
                .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit());
        if !prefix_ok {
            self.errors.error(
                &self.inner(&a.c_prefix),
                format!("c_prefix `{prefix}` must be lowercase letters and digits, starting with a letter"),
            );
        }
        if a.byte_order.get_ref() != "little" {
            self.errors.error_help(
                &self.inner(&a.byte_order),
                format!("byte_order `{}` is not supported", a.byte_order.get_ref()),
                "the generator targets little-endian ABIs: write byte_order = \"little\"",
            );
        }
        let version_policy = a.version_policy.as_ref().map_or(crate::ir::VersionPolicy::Strict, |p| {
            crate::ir::VersionPolicy::parse(p.get_ref()).unwrap_or_else(|| {
                self.errors.error_help(
                    &self.inner(p),
                    format!("version_policy `{}` is not known", p.get_ref()),
                    "write \"strict\" (a break needs a major bump) or \"cargo\" (while the major version is 0, a minor bump may break)",
                );
                crate::ir::VersionPolicy::Strict
            })
        });
        Abi {
            name: a.name.get_ref().clone(),
            version,
            version_span: self.inner(&a.version),
            version_policy,
            c_prefix: prefix.clone(),
            title: a.title.as_ref().map_or_else(
                || format!("{} schema reference", a.name.get_ref()),
                |t| t.get_ref().clone(),
            ),
            doc: text(&a.doc),
            consts: Vec::new(),
            enums: Vec::new(),
            structs: PerStruct::default(),
            order: Vec::new(),
            span: raw.abi.span(),
        }
    }
}
