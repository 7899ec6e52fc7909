//! The version policy: under `"strict"`, a breaking change needs a major bump, any other
//! change but a cosmetic one at least a minor bump; under `"cargo"`, while the major version
//! is 0, a minor bump may also break. A new field carries `since` equal to the version the
//! verdict asks for. There is no way around it but bumping the version.

use crate::ir::Version;

use crate::ir::VersionPolicy;

use super::change::{Change, Severity};
use super::model::Group;
use super::verdict::step_phrase;
use super::verdict::{Bump, Verdict};

/// How many item paths a problem names before it says "and N more".
const LISTED: usize = 5;

/// The bump a change of `severity` needs from `old` under `policy`.
pub fn required_bump(policy: VersionPolicy, severity: Severity, old: Version) -> Bump {
    match (policy, severity.required_bump()) {
        (VersionPolicy::Cargo, Bump::Major) if old.major == 0 => Bump::Minor,
        (_, bump) => bump,
    }
}

/// The next version from `old` with step `bump`.
fn bumped(old: Version, bump: Bump) -> Version {
    match bump {
        Bump::None => old,
        Bump::Minor => Version {
            major: old.major,
            minor: old.minor.saturating_add(1),
        },
        Bump::Major => Version {
            major: old.major.saturating_add(1),
            minor: 0,
        },
    }
}

/// What the versions do from `old` to `new`; `None` when they go backwards.
fn step(old: Version, new: Version) -> Option<Bump> {
    if new < old {
        None
    } else if new.major > old.major {
        Some(Bump::Major)
    } else if new.minor > old.minor {
        Some(Bump::Minor)
    } else {
        Some(Bump::None)
    }
}

/// The policy's word on a new item's `since`, against the version the verdict asks for.
fn since_violation(since: Option<Version>, required: bool, target: Version) -> Option<String> {
    match since {
        Some(s) if s == target => None,
        Some(s) => Some(format!(
            "it is new in {target} but says since = \"{s}\"; write since = \"{target}\""
        )),
        None if required => Some(format!("a new field must carry since = \"{target}\"")),
        None => None,
    }
}

/// Judges the changes against the step from `old` to `new` under `policy`, and sets each new
/// item's [`Change::violation`] about its `since`: the `since` asked for is the version
/// asked for.
pub fn compute_verdict(
    changes: &mut [Change],
    groups: &[Group],
    old: Version,
    new: Version,
    policy: VersionPolicy,
) -> Verdict {
    let need = |s: Severity| required_bump(policy, s, old);
    let required = groups
        .iter()
        .map(|g| need(g.severity))
        .max()
        .unwrap_or(Bump::None);
    let actual = step(old, new);
    let target = match actual {
        Some(s) if s >= required => new,
        _ => bumped(old, required.max(Bump::Minor)),
    };
    let mut problems = Vec::new();
    match actual {
        None => problems.push(format!(
            "{}: a new version must come after the old one",
            step_phrase(old, new, actual)
        )),
        Some(s) if s < required => {
            let hits: Vec<&Group> = groups
                .iter()
                .filter(|g| need(g.severity) == required)
                .collect();
            let mut names: Vec<String> = hits
                .iter()
                .take(LISTED)
                .map(|g| {
                    let c = &changes[g.root];
                    format!("`{}` ({})", c.path, c.summary)
                })
                .collect();
            if hits.len() > LISTED {
                names.push(format!("and {} more", hits.len() - LISTED));
            }
            let mut labels: Vec<&str> = Vec::new();
            for g in &hits {
                if !labels.contains(&g.severity.label()) {
                    labels.push(g.severity.label());
                }
            }
            let because = format!(
                "{} {} change{}: {}",
                hits.len(),
                labels.join(" or "),
                if hits.len() == 1 { "" } else { "s" },
                names.join(", ")
            );
            let needed = if required == Bump::Major {
                "a major bump is needed"
            } else {
                "at least a minor bump is needed"
            };
            let rule = match policy {
                VersionPolicy::Cargo
                    if required == Bump::Minor
                        && hits.iter().any(|g| g.severity == Severity::Breaking) =>
                {
                    " (version_policy = \"cargo\": a 0.x minor bump may break)"
                }
                _ => "",
            };
            problems.push(format!(
                "{needed} (version = \"{target}\"){rule}, but {}, because of {because}",
                step_phrase(old, new, actual),
            ));
        }
        Some(_) => {}
    }
    for c in changes.iter_mut() {
        if let Some((since, must)) = c.since_check {
            c.violation = since_violation(since, must, target);
        }
        if let Some(v) = &c.violation {
            problems.push(format!("`{}`: {v}", c.path));
        }
    }
    Verdict {
        policy,
        required,
        target,
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

    fn verdict(old: &str, new: &str) -> Verdict {
        compute_verdict(&mut [], &[], v(old), v(new), VersionPolicy::Strict)
    }

    #[test]
    fn steps_and_requirements() {
        let none = verdict("0.9", "0.9");
        assert_eq!(
            (none.required, none.actual, none.ok()),
            (Bump::None, Some(Bump::None), true)
        );
        let back = verdict("0.9", "0.8");
        assert_eq!(back.actual, None);
        assert!(!back.ok());
        assert_eq!(verdict("0.9", "0.10").actual, Some(Bump::Minor));
        assert_eq!(verdict("0.9", "1.0").actual, Some(Bump::Major));
        assert_eq!(verdict("1.9", "2.0").actual, Some(Bump::Major));
    }

    #[test]
    fn cargo_lets_a_0_x_minor_bump_break_and_nothing_else() {
        let s = VersionPolicy::Strict;
        let c = VersionPolicy::Cargo;
        assert_eq!(required_bump(s, Severity::Breaking, v("0.9")), Bump::Major);
        assert_eq!(required_bump(c, Severity::Breaking, v("0.9")), Bump::Minor);
        assert_eq!(required_bump(c, Severity::Breaking, v("1.0")), Bump::Major);
        assert_eq!(
            required_bump(c, Severity::Compatible, v("0.9")),
            Bump::Minor
        );
        assert_eq!(required_bump(c, Severity::Cosmetic, v("0.9")), Bump::None);
    }
}
