//! Move text
