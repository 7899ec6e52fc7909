//! The version policy: a breaking change needs a major bump, any other change but a
//! cosmetic one at least a minor bump, and a new field carries `since` equal to the new
//! version. There is no way around it but bumping the version.

use crate::ir::Version;

use super::{Bump, Change, Severity, Verdict};

/// How many item paths a problem names before it says "and N more".
const LISTED: usize = 5;

/// "0.8 → 0.9 is a minor bump", "the version stays 0.9", "the version goes backwards, ...".
pub(super) fn step_phrase(old: Version, new: Version, actual: Option<Bump>) -> String {
    match actual {
        None => format!("the version goes backwards, {old} → {new}"),
        Some(Bump::None) => format!("the version stays {new}"),
        Some(b) => format!("{old} → {new} is {}", b.label()),
    }
}

/// Judges `changes` against the step from `old` to `new`.
pub fn compute_verdict(changes: &[Change], old: Version, new: Version) -> Verdict {
    let required = changes
        .iter()
        .map(|c| c.severity.required_bump())
        .max()
        .unwrap_or(Bump::None);
    let actual = if new < old {
        None
    } else if new.major > old.major {
        Some(Bump::Major)
    } else if new.minor > old.minor {
        Some(Bump::Minor)
    } else {
        Some(Bump::None)
    };
    let mut problems = Vec::new();
    let next_major = Version {
        major: old.major + 1,
        minor: 0,
    };
    let next_minor = Version {
        major: old.major,
        minor: old.minor + 1,
    };
    match actual {
        None => problems.push(format!(
            "{}: a new version must come after the old one",
            step_phrase(old, new, actual)
        )),
        Some(step) if step < required => {
            let causes = |severities: &[Severity]| -> String {
                let hits: Vec<&Change> = changes
                    .iter()
                    .filter(|c| severities.contains(&c.severity))
                    .collect();
                let mut names: Vec<String> = hits
                    .iter()
                    .take(LISTED)
                    .map(|c| format!("`{}` ({})", c.path, c.summary))
                    .collect();
                if hits.len() > LISTED {
                    names.push(format!("and {} more", hits.len() - LISTED));
                }
                format!(
                    "{} {} change{}: {}",
                    hits.len(),
                    severities
                        .iter()
                        .map(|s| s.label())
                        .collect::<Vec<_>>()
                        .join(" or "),
                    if hits.len() == 1 { "" } else { "s" },
                    names.join(", ")
                )
            };
            if required == Bump::Major {
                problems.push(format!(
                    "a major bump is needed (version = \"{next_major}\"), but {}, because of {}",
                    step_phrase(old, new, actual),
                    causes(&[Severity::Breaking])
                ));
            } else {
                problems.push(format!(
                    "at least a minor bump is needed (version = \"{next_minor}\"), but {}, because of {}",
                    step_phrase(old, new, actual),
                    causes(&[Severity::SourceBreaking, Severity::Compatible])
                ));
            }
        }
        Some(_) => {}
    }
    for c in changes {
        if let Some(v) = &c.violation {
            problems.push(format!("`{}`: {v}", c.path));
        }
    }
    Verdict {
        required,
        actual,
        problems,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn v(s: &str) -> Version {
        Version::parse(s).unwrap()
    }

    #[test]
    fn steps_and_requirements() {
        let none = compute_verdict(&[], v("0.9"), v("0.9"));
        assert_eq!(
            (none.required, none.actual, none.ok()),
            (Bump::None, Some(Bump::None), true)
        );
        let back = compute_verdict(&[], v("0.9"), v("0.8"));
        assert_eq!(back.actual, None);
        assert!(!back.ok());
        assert_eq!(
            compute_verdict(&[], v("0.9"), v("0.10")).actual,
            Some(Bump::Minor)
        );
        assert_eq!(
            compute_verdict(&[], v("0.9"), v("1.0")).actual,
            Some(Bump::Major)
        );
        assert_eq!(
            compute_verdict(&[], v("1.9"), v("2.0")).actual,
            Some(Bump::Major)
        );
    }
}
