//! The classes of cases a load run drives, each on streams of its own.

/// A class of cases.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub(crate) enum Class {
    Eight,
    FifteenEasy,
    FifteenHard,
    Solitaire,
}

impl Class {
    pub(crate) const ALL: [Class; 4] = [
        Class::Eight,
        Class::FifteenEasy,
        Class::FifteenHard,
        Class::Solitaire,
    ];

    pub(crate) fn name(self) -> &'static str {
        match self {
            Class::Eight => "eight",
            Class::FifteenEasy => "fifteen-easy",
            Class::FifteenHard => "fifteen-hard",
            Class::Solitaire => "solitaire",
        }
    }

    /// The class named `name`.
    pub(crate) fn from_name(name: &str) -> Option<Self> {
        Class::ALL.into_iter().find(|c| c.name() == name)
    }

    pub(super) fn default_in_flight(self) -> usize {
        match self {
            Class::FifteenHard => 1,
            _ => 64,
        }
    }
}
