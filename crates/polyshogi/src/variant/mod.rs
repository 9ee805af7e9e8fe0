//! The games polyshogi knows: one module per game behind a closed `Variant` enum, and the
//! rule options shared by all.

pub mod options;
pub mod sannin;

use std::fmt;
use std::str::FromStr;

/// A game polyshogi knows by name.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Variant {
    Sannin,
}

impl Variant {
    pub const ALL: [Variant; 1] = [Variant::Sannin];

    pub const fn name(self) -> &'static str {
        match self {
            Variant::Sannin => "sannin",
        }
    }
}

#[derive(Clone, PartialEq, Eq, Debug)]
pub struct UnknownVariant(pub String);

impl fmt::Display for UnknownVariant {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let known: Vec<&str> = Variant::ALL.iter().map(|v| v.name()).collect();
        write!(f, "unknown variant `{}` (known: {})", self.0, known.join(", "))
    }
}

impl std::error::Error for UnknownVariant {}

impl FromStr for Variant {
    type Err = UnknownVariant;

    fn from_str(s: &str) -> Result<Variant, UnknownVariant> {
        Variant::ALL.into_iter().find(|v| v.name() == s).ok_or_else(|| UnknownVariant(s.to_string()))
    }
}
