//! The provider's webhook body as Parley reads it: the envelope, then what the inbox asks of
//! each message (its sender, what is stored, the media to keep, the message it amends).
#![no_main]

use libfuzzer_sys::fuzz_target;
use parley_server::cloud::{Change, Envelope};

fuzz_target!(|body: &[u8]| {
    let Ok(envelope) = Envelope::read(body) else {
        return;
    };
    let changes = envelope.entry.iter().flat_map(|entry| &entry.changes);
    for value in changes.filter_map(|change| match change {
        Change::Messages(value) => Some(value),
        _ => None,
    }) {
        for message in &value.messages {
            let _ = (message.sender(&value.contacts), message.stored());
            let _ = (message.media_id(), message.amends());
        }
    }
});
