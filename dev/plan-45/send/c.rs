//! Issue 45's plan: a stand-alone check of whether this shape of request future is Send (rustc --edition 2024 --crate-type lib --emit=metadata c.rs); not part of any crate.
use std::future::Future;
pub trait Step { type Done; fn look(&mut self) -> impl Future<Output = Self::Done>; }
pub async fn drive<S: Step>(s: &mut S, stop: Option<&mut std::pin::Pin<Box<dyn Future<Output = ()> + Send>>>) -> S::Done {
    if let Some(st) = stop { st.as_mut().await; }
    s.look().await
}
pub struct A(u32);
impl Step for A { type Done = u32; async fn look(&mut self) -> u32 { std::future::ready(()).await; self.0 } }
fn assert_send<F: Future + Send>(_: F) {}
pub fn check() { let mut a = A(1); assert_send(drive(&mut a, None)); }
