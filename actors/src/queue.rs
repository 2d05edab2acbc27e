//! A bounded single-producer queue from a session actor to its connection's writer. Unlike
//! tokio's `mpsc`, which allocates a 32-slot block up front, it holds memory only while frames
//! wait: most sessions sit idle with nothing queued, and thousands of them are held at once.

use std::collections::VecDeque;
use std::sync::{Arc, Mutex, MutexGuard};

use tokio::sync::Notify;

struct Shared<T> {
    state: Mutex<State<T>>,
    /// Wakes the receiver: a frame came, or the sender is gone.
    ready: Notify,
}

struct State<T> {
    items: VecDeque<T>,
    capacity: usize,
    sender_gone: bool,
    receiver_gone: bool,
}

impl<T> Shared<T> {
    fn lock(&self) -> MutexGuard<'_, State<T>> {
        self.state.lock().unwrap_or_else(|p| p.into_inner())
    }
}

/// A queue holding at most `capacity` items.
pub fn bounded<T>(capacity: usize) -> (Sender<T>, Receiver<T>) {
    let shared = Arc::new(Shared {
        state: Mutex::new(State {
            items: VecDeque::new(),
            capacity,
            sender_gone: false,
            receiver_gone: false,
        }),
        ready: Notify::new(),
    });
    (Sender(shared.clone()), Receiver(shared))
}

/// Why `try_send` refused an item (which it hands back).
#[derive(Debug, PartialEq)]
pub enum SendError<T> {
    Full(T),
    /// The receiver was dropped.
    Closed(T),
}

pub struct Sender<T>(Arc<Shared<T>>);

impl<T> Sender<T> {
    /// Free places left; 0 once the receiver is gone.
    pub fn capacity(&self) -> usize {
        let state = self.0.lock();
        if state.receiver_gone {
            0
        } else {
            state.capacity - state.items.len()
        }
    }

    pub fn try_send(&self, item: T) -> Result<(), SendError<T>> {
        let mut state = self.0.lock();
        if state.receiver_gone {
            return Err(SendError::Closed(item));
        }
        if state.items.len() >= state.capacity {
            return Err(SendError::Full(item));
        }
        state.items.push_back(item);
        drop(state);
        self.0.ready.notify_one();
        Ok(())
    }
}

impl<T> Drop for Sender<T> {
    fn drop(&mut self) {
        self.0.lock().sender_gone = true;
        self.0.ready.notify_one();
    }
}

pub struct Receiver<T>(Arc<Shared<T>>);

impl<T> Receiver<T> {
    /// The next item; `None` once the sender is gone and everything queued was taken.
    /// Cancel-safe: an item is only taken by the call that returns it.
    pub async fn recv(&mut self) -> Option<T> {
        loop {
            match self.take() {
                Taken::Item(item) => return Some(item),
                Taken::Ended => return None,
                // `notify_one` leaves a permit when nobody waits, so a send between the check
                // above and this wait is not missed.
                Taken::Empty => self.0.ready.notified().await,
            }
        }
    }

    /// The next item if one is waiting now.
    pub fn try_recv(&mut self) -> Option<T> {
        match self.take() {
            Taken::Item(item) => Some(item),
            Taken::Empty | Taken::Ended => None,
        }
    }

    fn take(&mut self) -> Taken<T> {
        let mut state = self.0.lock();
        match state.items.pop_front() {
            Some(item) => {
                if state.items.is_empty() && state.items.capacity() > IDLE_SLOTS {
                    // A burst is over: give its memory back.
                    state.items.shrink_to(IDLE_SLOTS);
                }
                Taken::Item(item)
            }
            None if state.sender_gone => Taken::Ended,
            None => Taken::Empty,
        }
    }
}

enum Taken<T> {
    Item(T),
    Empty,
    Ended,
}

/// Places an empty queue keeps: one, so a session that gets one frame at a time (the common
/// case) never reallocates, and an idle one holds a single slot.
const IDLE_SLOTS: usize = 1;

impl<T> Drop for Receiver<T> {
    fn drop(&mut self) {
        let mut state = self.0.lock();
        state.receiver_gone = true;
        state.items.clear();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn items_come_out_in_order_until_the_sender_is_gone() {
        let (tx, mut rx) = bounded(3);
        tx.try_send(1).expect("room");
        tx.try_send(2).expect("room");
        assert_eq!(tx.capacity(), 1);
        assert_eq!(rx.recv().await, Some(1));
        tx.try_send(3).expect("room");
        drop(tx);
        assert_eq!(rx.recv().await, Some(2));
        assert_eq!(rx.recv().await, Some(3));
        assert_eq!(rx.recv().await, None);
    }

    #[tokio::test]
    async fn try_recv_takes_only_what_is_waiting() {
        let (tx, mut rx) = bounded(3);
        assert_eq!(rx.try_recv(), None);
        tx.try_send(1).expect("room");
        tx.try_send(2).expect("room");
        assert_eq!(rx.try_recv(), Some(1));
        assert_eq!(rx.try_recv(), Some(2));
        assert_eq!(rx.try_recv(), None);
        tx.try_send(3).expect("room");
        drop(tx);
        assert_eq!(rx.try_recv(), Some(3));
        assert_eq!(rx.try_recv(), None);
        assert_eq!(rx.recv().await, None);
    }

    #[tokio::test]
    async fn a_full_queue_refuses_and_a_dropped_receiver_closes() {
        let (tx, rx) = bounded(1);
        tx.try_send("a").expect("room");
        assert_eq!(tx.try_send("b"), Err(SendError::Full("b")));
        drop(rx);
        assert_eq!(tx.capacity(), 0);
        assert_eq!(tx.try_send("c"), Err(SendError::Closed("c")));
    }

    #[tokio::test]
    async fn a_waiting_receiver_wakes_for_a_later_send() {
        let (tx, mut rx) = bounded(2);
        let waiting = tokio::spawn(async move { rx.recv().await });
        tokio::task::yield_now().await;
        tx.try_send(7).expect("room");
        assert_eq!(waiting.await.expect("joined"), Some(7));
    }

    #[tokio::test]
    async fn a_cancelled_wait_loses_nothing() {
        let (tx, mut rx) = bounded(2);
        let timed_out = tokio::time::timeout(std::time::Duration::from_millis(10), rx.recv()).await;
        assert!(timed_out.is_err());
        tx.try_send(9).expect("room");
        assert_eq!(rx.recv().await, Some(9));
    }
}
