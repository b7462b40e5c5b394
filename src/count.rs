//! Counts said in words for people: `1 task`, `2 tasks`, `0 tasks`. The
//! CLI's messages never pair a count of one with a plural noun (the client
//! keeps a copy of its own for its messages).

use std::fmt::Display;

/// `one` when `n` is 1, else `many`: for a noun whose count is written
/// elsewhere (`2/1 task` reads by its last number).
pub fn noun<'a, N: PartialEq + From<u8>>(n: N, one: &'a str, many: &'a str) -> &'a str {
    if n == N::from(1) { one } else { many }
}

/// `n` and its noun: `1 task`, `3 tasks`.
pub fn count<N: Display + PartialEq + From<u8> + Copy>(n: N, one: &str, many: &str) -> String {
    format!("{n} {}", noun(n, one, many))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_is_singular_and_the_rest_plural() {
        assert_eq!(count(1usize, "task", "tasks"), "1 task");
        assert_eq!(count(0u64, "task", "tasks"), "0 tasks");
        assert_eq!(count(2i64, "entity", "entities"), "2 entities");
        assert_eq!(noun(1u32, "run", "runs"), "run");
    }
}
