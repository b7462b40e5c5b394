//! Task graphs of seeded pipelines: their shapes, and the walk that decides
//! which tasks one run executes (conditions pick a branch, `for_each` repeats
//! its branch once per item), so runs of one pipeline differ in size.

use super::rng::Rng;

/// What comes after a task. Indices point into the pipeline's task list.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Next {
    End,
    To(usize),
    /// A condition: its result picks the first (true) or second branch.
    Branch(usize, usize),
    /// A `for_each`: the branch from `body` (up to its `End`) runs once per
    /// item, then the run goes on at `after`.
    Each {
        body: usize,
        after: Option<usize>,
    },
}

/// A graph shape: task types and, for each, what follows it. Task 0 is the
/// initial task.
pub struct Shape {
    pub types: &'static [&'static str],
    pub next: &'static [Next],
}

use Next::{Branch, Each, End, To};

/// A straight chain; the first pipeline's shape, so demos stay predictable.
pub const CHAIN: Shape = Shape {
    types: &["query", "filter", "aggregator", "notification"],
    next: &[To(1), To(2), To(3), End],
};

/// The pipeline that begins with an external trigger, added after the
/// others (`trigger.rs`): an order comes in, is reshaped, sent on, announced.
pub const TRIGGERED: Shape = Shape {
    types: &[
        "external_trigger",
        "transformer",
        "api_call",
        "notification",
    ],
    next: &[To(1), To(2), To(3), End],
};

/// The other shapes, dealt to the remaining entities by the seed.
pub const SHAPES: &[Shape] = &[
    // A condition choosing one of two branches that meet again.
    Shape {
        types: &["query", "condition", "gpt", "api_call", "notification"],
        next: &[To(1), Branch(2, 3), To(4), To(4), End],
    },
    // A for_each over the rows of a query, then a summary.
    Shape {
        types: &[
            "query",
            "for_each",
            "api_call",
            "transformer",
            "notification",
        ],
        next: &[
            To(1),
            Each {
                body: 2,
                after: Some(4),
            },
            To(3),
            End,
            End,
        ],
    },
    // A chain with a slow query in the middle.
    Shape {
        types: &["external_trigger", "code", "query", "merge", "notification"],
        next: &[To(1), To(2), To(3), To(4), End],
    },
    // Condition that can end the run early.
    Shape {
        types: &["query", "condition", "aggregator", "run_pipeline"],
        next: &[To(1), Branch(2, 3), To(3), End],
    },
    Shape {
        types: &["api_call", "processor", "for_each", "filter", "query"],
        next: &[
            To(1),
            To(2),
            Each {
                body: 3,
                after: None,
            },
            To(4),
            End,
        ],
    },
    Shape {
        types: &["query", "transformer", "api_call"],
        next: &[To(1), To(2), End],
    },
    Shape {
        types: &["external_trigger", "transformer", "query"],
        next: &[To(1), To(2), End],
    },
];

/// At most this many steps in one run, whatever the graph.
const MAX_STEPS: usize = 64;

/// The task indices one run executes if nothing fails, in order.
pub fn path(next: &[Next], rng: &mut Rng) -> Vec<usize> {
    let mut out = Vec::new();
    let mut at = Some(0).filter(|_| !next.is_empty());
    // Where to go when a for_each body ends, and the items left.
    let mut loops: Vec<(usize, Option<usize>, u64)> = Vec::new();
    while let Some(i) = at {
        if out.len() >= MAX_STEPS {
            break;
        }
        out.push(i);
        at = match next[i] {
            To(j) => Some(j),
            Branch(yes, no) => Some(if rng.chance(0.7) { yes } else { no }),
            Each { body, after } => {
                let items = rng.range(1, 4);
                loops.push((body, after, items - 1));
                Some(body)
            }
            End => match loops.last_mut() {
                Some((body, _, left)) if *left > 0 => {
                    *left -= 1;
                    Some(*body)
                }
                Some((_, after, _)) => {
                    let after = *after;
                    loops.pop();
                    after
                }
                None => None,
            },
        };
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::Stream;

    #[test]
    fn shapes_are_well_formed_and_for_each_sizes_vary() {
        for s in SHAPES.iter().chain([&CHAIN, &TRIGGERED]) {
            assert_eq!(s.types.len(), s.next.len());
        }
        let mut rng = Rng::stream(1, Stream::Runs, 0);
        let sizes: std::collections::BTreeSet<usize> = (0..50)
            .map(|_| path(SHAPES[1].next, &mut rng).len())
            .collect();
        assert!(sizes.len() > 1, "{sizes:?}");
        assert_eq!(path(CHAIN.next, &mut rng), vec![0, 1, 2, 3]);
    }
}
