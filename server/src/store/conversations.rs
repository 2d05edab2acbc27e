//! The actors' `ConversationStore`: where each conversation actor's writes go. Inbound messages,
//! their edits and deletions, echoes and receipts go through the group-commit writer; sends, their outcomes and mark-as-read are
//! written at once.

use std::sync::Arc;

use futures_util::future::BoxFuture;
use parley_actors::conversation::{
    Amendment, ConversationKey, ConversationStore, InboundMessage, OutgoingMessage, OutgoingState,
    SendOutcome, StatusUpdate,
};
use parley_actors::error::StoreError;
use parley_actors::events::Event;
use parley_actors::hub::EventBus;

use super::Store;
use super::ingest::Write;

impl ConversationStore for Store {
    fn record_inbound(
        &self,
        key: ConversationKey,
        message: Arc<InboundMessage>,
        bus: Arc<dyn EventBus>,
    ) -> BoxFuture<'static, Result<bool, StoreError>> {
        let committed = self.ingest.submit(key, Write::Inbound(message), bus);
        Box::pin(async move { committed.await.map_err(StoreError::store) })
    }

    fn record_amendment(
        &self,
        key: ConversationKey,
        amendment: Arc<Amendment>,
        bus: Arc<dyn EventBus>,
    ) -> BoxFuture<'static, Result<bool, StoreError>> {
        let committed = self.ingest.submit(key, Write::Amend(amendment), bus);
        Box::pin(async move { committed.await.map_err(StoreError::store) })
    }

    fn record_echo(
        &self,
        key: ConversationKey,
        message: Arc<InboundMessage>,
        bus: Arc<dyn EventBus>,
    ) -> BoxFuture<'static, Result<bool, StoreError>> {
        let committed = self.ingest.submit(key, Write::Echo(message), bus);
        Box::pin(async move { committed.await.map_err(StoreError::store) })
    }

    fn record_status(
        &self,
        key: ConversationKey,
        update: StatusUpdate,
        bus: Arc<dyn EventBus>,
    ) -> BoxFuture<'static, Result<(), StoreError>> {
        let committed = self.ingest.submit(key, Write::Status(update), bus);
        Box::pin(async move { committed.await.map(drop).map_err(StoreError::store) })
    }

    fn mark_read(
        &self,
        key: ConversationKey,
    ) -> BoxFuture<'static, Result<(u64, Vec<Event>), StoreError>> {
        let store = self.clone();
        Box::pin(async move { store.set_read(key).await.map_err(StoreError::store) })
    }

    fn record_outgoing(
        &self,
        key: ConversationKey,
        message: OutgoingMessage,
    ) -> BoxFuture<'static, Result<(OutgoingState, Vec<Event>), StoreError>> {
        let store = self.clone();
        Box::pin(async move {
            store
                .insert_outgoing(key, message)
                .await
                .map_err(StoreError::store)
        })
    }

    fn record_send_outcome(
        &self,
        key: ConversationKey,
        outcome: SendOutcome,
    ) -> BoxFuture<'static, Result<Vec<Event>, StoreError>> {
        let store = self.clone();
        Box::pin(async move {
            store
                .apply_send_outcome(key, outcome)
                .await
                .map_err(StoreError::store)
        })
    }
}
