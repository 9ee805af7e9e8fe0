//! Game records, read: tag pairs (`[Variant "sannin"]`), `{…}` comments, round numbers, move
//! texts and answers to proposed alliances (`accept`, `refuse`), each kept with its line and
//! column, and the closing result (`*`, `1-2-2`).

use std::fmt;

/// A record as text pieces, before any move is checked against a position.
#[derive(Clone, PartialEq, Eq, Debug, Default)]
pub struct RecordText {
    pub tags: Vec<(String, String)>,
    pub moves: Vec<MoveToken>,
}

/// One move text and where it stands in the record.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct MoveToken {
    pub text: String,
    pub line: usize,
    pub column: usize,
}

impl RecordText {
    pub fn tag(&self, name: &str) -> Option<&str> {
        self.tags.iter().find(|(k, _)| k == name).map(|(_, v)| v.as_str())
    }
}

#[derive(Clone, PartialEq, Eq, Debug)]
pub struct RecordError {
    pub line: usize,
    pub column: usize,
    pub message: String,
}

impl fmt::Display for RecordError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "line {}, column {}: {}", self.line, self.column, self.message)
    }
}

impl std::error::Error for RecordError {}

/// A result token: `*` for an unfinished game, or the seats' places joined by `-`.
fn is_result(token: &str) -> bool {
    token == "*" || (token.contains('-') && token.split('-').all(|n| !n.is_empty() && n.chars().all(|c| c.is_ascii_digit())))
}

/// Splits a record into tags and move tokens.
pub fn read_record(text: &str) -> Result<RecordText, RecordError> {
    let mut record = RecordText::default();
    let mut in_comment: Option<(usize, usize)> = None;
    for (line_index, line) in text.lines().enumerate() {
        let line_no = line_index + 1;
        let chars: Vec<(usize, char)> = line.char_indices().collect();
        let mut i = 0;
        let error = |i: usize, message: String| RecordError { line: line_no, column: i + 1, message };
        while i < chars.len() {
            let (_, c) = chars[i];
            if in_comment.is_some() {
                if c == '}' {
                    in_comment = None;
                }
                i += 1;
                continue;
            }
            if c.is_whitespace() {
                i += 1;
            } else if c == '{' {
                in_comment = Some((line_no, i + 1));
                i += 1;
            } else if c == '[' {
                let rest: String = chars[i..].iter().map(|&(_, c)| c).collect();
                let (name, value, used) = read_tag(&rest).map_err(|(offset, msg)| error(i + offset, msg))?;
                if !record.moves.is_empty() {
                    return Err(error(i, "tags must come before the moves".into()));
                }
                record.tags.push((name, value));
                i += used;
            } else {
                let start = i;
                while i < chars.len() && !chars[i].1.is_whitespace() && chars[i].1 != '{' {
                    i += 1;
                }
                let token: String = chars[start..i].iter().map(|&(_, c)| c).collect();
                let is_round_number =
                    token.ends_with('.') && token[..token.len() - 1].chars().all(|c| c.is_ascii_digit()) && token.len() > 1;
                if is_round_number || is_result(&token) {
                    continue;
                }
                record.moves.push(MoveToken { text: token, line: line_no, column: start + 1 });
            }
        }
    }
    if let Some((line, column)) = in_comment {
        return Err(RecordError { line, column, message: "comment `{` is never closed".into() });
    }
    Ok(record)
}

/// Reads `[Name "value"]` at the start of `text`: (name, value, characters used).
fn read_tag(text: &str) -> Result<(String, String, usize), (usize, String)> {
    let chars: Vec<char> = text.chars().collect();
    let mut i = 1;
    let name_start = i;
    while i < chars.len() && chars[i].is_ascii_alphanumeric() {
        i += 1;
    }
    if i == name_start {
        return Err((i, "expected a tag name after `[`".into()));
    }
    let name: String = chars[name_start..i].iter().collect();
    while i < chars.len() && chars[i] == ' ' {
        i += 1;
    }
    if chars.get(i) != Some(&'"') {
        return Err((i, format!("expected `\"` to open the value of tag {name}")));
    }
    i += 1;
    let mut value = String::new();
    loop {
        match chars.get(i) {
            None => return Err((i, format!("the value of tag {name} is never closed with `\"`"))),
            Some('\\') if matches!(chars.get(i + 1), Some('"' | '\\' | 'n' | 'r')) => {
                value.push(match chars[i + 1] {
                    'n' => '\n',
                    'r' => '\r',
                    c => c,
                });
                i += 2;
            }
            Some('"') => break,
            Some(&c) => {
                value.push(c);
                i += 1;
            }
        }
    }
    i += 1;
    if chars.get(i) != Some(&']') {
        return Err((i, format!("expected `]` to close tag {name}")));
    }
    Ok((name, value, i + 1))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tags_comments_round_numbers_and_moves_are_told_apart() {
        let record = read_record("[Variant \"sannin\"]\n{ a note }\n1. P3c-4d P10k-10j\n  P11g-10g *\n").unwrap();
        assert_eq!(record.tag("Variant"), Some("sannin"));
        let texts: Vec<&str> = record.moves.iter().map(|m| m.text.as_str()).collect();
        assert_eq!(texts, ["P3c-4d", "P10k-10j", "P11g-10g"]);
        assert_eq!((record.moves[2].line, record.moves[2].column), (4, 3));
    }

    #[test]
    fn broken_tags_and_comments_are_located() {
        let err = read_record("[Variant \"sannin]\n").unwrap_err();
        assert_eq!((err.line, err.message.contains("never closed")), (1, true));
        let err = read_record("1. P3c-4d\n{ open\n").unwrap_err();
        assert_eq!((err.line, err.column), (2, 1));
        let err = read_record("1. P3c-4d [Date \"x\"]").unwrap_err();
        assert_eq!((err.line, err.column), (1, 11));
    }
}
