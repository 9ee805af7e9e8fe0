//! The error of every position-string parser: where (column) and what was expected.

use std::fmt;

#[derive(Clone, PartialEq, Eq, Debug)]
pub struct ParsePositionError {
    /// 1-based character column in the position string.
    pub column: usize,
    pub message: String,
}

impl ParsePositionError {
    pub fn at(column: usize, message: impl Into<String>) -> ParsePositionError {
        ParsePositionError { column, message: message.into() }
    }
}

impl fmt::Display for ParsePositionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "position, column {}: {}", self.column, self.message)
    }
}

impl std::error::Error for ParsePositionError {}

/// A position string split into space-separated fields, each with its starting column.
pub struct Fields<'a> {
    fields: Vec<(usize, &'a str)>,
    next: usize,
    end_column: usize,
}

impl<'a> Fields<'a> {
    pub fn new(text: &'a str) -> Fields<'a> {
        let mut fields = Vec::new();
        let mut start = None;
        for (column, (index, c)) in text.char_indices().enumerate() {
            match (c == ' ', start) {
                (false, None) => start = Some((column + 1, index)),
                (true, Some((col, from))) => {
                    fields.push((col, &text[from..index]));
                    start = None;
                }
                _ => {}
            }
        }
        if let Some((col, from)) = start {
            fields.push((col, &text[from..]));
        }
        Fields { fields, next: 0, end_column: text.chars().count() + 1 }
    }

    /// The next field and its column, or an error naming what was expected there.
    pub fn next(&mut self, expected: &str) -> Result<(usize, &'a str), ParsePositionError> {
        let field = self.fields.get(self.next).copied();
        self.next += 1;
        field.ok_or_else(|| ParsePositionError::at(self.end_column, format!("expected {expected}")))
    }

    /// The next field if there is one.
    pub fn optional(&mut self) -> Option<(usize, &'a str)> {
        let field = self.fields.get(self.next).copied();
        if field.is_some() {
            self.next += 1;
        }
        field
    }

    /// Fails if fields are left over.
    pub fn finish(&self) -> Result<(), ParsePositionError> {
        match self.fields.get(self.next) {
            Some(&(column, text)) => Err(ParsePositionError::at(column, format!("unexpected `{text}` after the position"))),
            None => Ok(()),
        }
    }
}
