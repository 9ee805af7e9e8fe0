//! `Hour`: the twelve clock directions of a hexagonal board.
//! Odd hours are orthogonals (through a side), even hours diagonals (through a corner).

/// A clock direction; 0 stands for 12 o'clock. On screen, 12 o'clock points up.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
pub struct Hour(u8);

impl Hour {
    pub const ALL: [Hour; 12] =
        [Hour(0), Hour(1), Hour(2), Hour(3), Hour(4), Hour(5), Hour(6), Hour(7), Hour(8), Hour(9), Hour(10), Hour(11)];

    /// The hour `h` on a clock face (12 and 0 are the same hour).
    pub const fn new(h: u8) -> Hour {
        Hour(h % 12)
    }

    #[inline]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    pub const fn is_orthogonal(self) -> bool {
        self.0 % 2 == 1
    }

    /// The hour `offset` hours clockwise from this one.
    #[inline]
    pub const fn turned(self, offset: u8) -> Hour {
        Hour((self.0 + offset) % 12)
    }

    #[inline]
    pub const fn opposite(self) -> Hour {
        self.turned(6)
    }

    /// The hour as a clock shows it, 1..=12.
    pub const fn clock_value(self) -> u8 {
        if self.0 == 0 {
            12
        } else {
            self.0
        }
    }
}
