//! How each layer's own error becomes the HTTP surface's `ApiError`.

use crate::auth::error::AuthError;
use crate::canned::CannedError;
use crate::cloud::EnvelopeError;
use crate::customer::InvalidCustomerKey;
use crate::inbound::InboundError;
use crate::media::MediaError;
use crate::multipart::FormError;
use crate::outbox::OutboxError;
use crate::phone::InvalidPhone;
use crate::plain_text::ControlCharacter;
use crate::push::SubscriptionError;
use crate::refusal::Refusal;
use crate::replies::form::ReplyFormError;
use crate::reports::InvalidReport;
use crate::sending::SendError;
use crate::store;
use crate::team::TeamError;
use crate::templates::catalog::CatalogError;

use super::ApiError;

impl From<store::Error> for ApiError {
    fn from(err: store::Error) -> Self {
        match err {
            store::Error::NotFound(text) => ApiError::NotFound(text),
            store::Error::Conflict(text) => ApiError::Conflict(text),
            store::Error::AccountTaken(account) => ApiError::AccountTaken(account),
            store::Error::Db(err) => {
                ApiError::Internal(anyhow::Error::new(err).context("database error"))
            }
            store::Error::Other(err) => ApiError::Internal(err),
        }
    }
}

impl From<AuthError> for ApiError {
    fn from(err: AuthError) -> Self {
        match err {
            AuthError::Expired => ApiError::TokenExpired,
            AuthError::Revoked => ApiError::TokenRevoked,
            AuthError::Refused(text) => ApiError::Unauthorized(text),
            AuthError::NotConfigured(text) => ApiError::NotImplemented(text),
            AuthError::Unreachable(text) => ApiError::Unavailable(text),
            AuthError::Store(err) => err.into(),
            AuthError::Internal(err) => ApiError::Internal(err),
        }
    }
}

impl From<InvalidCustomerKey> for ApiError {
    fn from(err: InvalidCustomerKey) -> Self {
        ApiError::Unprocessable(err.to_string())
    }
}

impl From<InvalidPhone> for ApiError {
    fn from(err: InvalidPhone) -> Self {
        ApiError::Unprocessable(err.to_string())
    }
}

impl From<FormError> for ApiError {
    fn from(err: FormError) -> Self {
        match err {
            FormError::FieldTooLong(_) | FormError::TooLarge => {
                ApiError::PayloadTooLarge(err.to_string())
            }
            FormError::ControlCharacter(_) => ApiError::Unprocessable(err.to_string()),
            FormError::NotMultipart => ApiError::Unsupported(err.to_string()),
            FormError::TooManyParts | FormError::Invalid(_) => {
                ApiError::BadRequest(err.to_string())
            }
        }
    }
}

impl From<ControlCharacter> for ApiError {
    fn from(err: ControlCharacter) -> Self {
        ApiError::Unprocessable(err.to_string())
    }
}

impl From<Refusal> for ApiError {
    fn from(err: Refusal) -> Self {
        match err {
            Refusal::Rejected {
                text,
                details: Some(details),
            } => ApiError::Detailed {
                error: Box::new(ApiError::Unprocessable(text)),
                details,
            },
            Refusal::Rejected { text, .. } => ApiError::Unprocessable(text),
            Refusal::Unreachable(text) => ApiError::BadGateway(text),
        }
    }
}

impl From<MediaError> for ApiError {
    fn from(err: MediaError) -> Self {
        match err {
            MediaError::Unsupported => ApiError::Unsupported(err.to_string()),
            MediaError::Invalid(text) => ApiError::Unprocessable(text),
            MediaError::Io(err) => ApiError::Internal(err.into()),
            MediaError::Store(err) => err.into(),
        }
    }
}

impl From<OutboxError> for ApiError {
    fn from(err: OutboxError) -> Self {
        match err {
            OutboxError::Store(err) => err.into(),
            OutboxError::Media(err) => err.into(),
            OutboxError::NotConfigured(text) => ApiError::Unavailable(text),
            OutboxError::MediaUnavailable(_) => ApiError::NotFound(err.to_string()),
            OutboxError::Conversation(_) | OutboxError::Vanished | OutboxError::Journal(_) => {
                ApiError::Internal(anyhow::Error::new(err))
            }
        }
    }
}

impl From<SendError> for ApiError {
    fn from(err: SendError) -> Self {
        match err {
            SendError::Invalid(text) => ApiError::Unprocessable(text),
            SendError::Forbidden(text) => ApiError::Forbidden(text),
            SendError::NotFound(text) => ApiError::NotFound(text),
            SendError::Store(err) => err.into(),
            SendError::Media(err) => err.into(),
            SendError::Outbox(err) => err.into(),
            SendError::Refused(err) => err.into(),
        }
    }
}

impl From<CatalogError> for ApiError {
    fn from(err: CatalogError) -> Self {
        match err {
            CatalogError::Rejected(text) => ApiError::Unprocessable(text),
            CatalogError::Unreachable(text) => ApiError::BadGateway(text),
            CatalogError::Store(err) => err.into(),
        }
    }
}

impl From<SubscriptionError> for ApiError {
    fn from(err: SubscriptionError) -> Self {
        match err {
            SubscriptionError::Malformed(text) => ApiError::BadRequest(text),
            SubscriptionError::Invalid(text) => ApiError::Unprocessable(text),
        }
    }
}

impl From<ReplyFormError> for ApiError {
    fn from(err: ReplyFormError) -> Self {
        match err {
            ReplyFormError::Invalid(_) => ApiError::Unprocessable(err.to_string()),
            ReplyFormError::TriggerTaken(_) => ApiError::Conflict(err.to_string()),
        }
    }
}

impl From<InvalidReport> for ApiError {
    fn from(err: InvalidReport) -> Self {
        ApiError::Unprocessable(err.0)
    }
}

impl From<TeamError> for ApiError {
    fn from(err: TeamError) -> Self {
        match err {
            TeamError::Invalid(text) => ApiError::Unprocessable(text),
            TeamError::Forbidden(text) => ApiError::Forbidden(text),
            TeamError::AssignedToOther(holder) => ApiError::AssignedToOther(holder),
            TeamError::Store(err) => err.into(),
        }
    }
}

impl From<CannedError> for ApiError {
    fn from(err: CannedError) -> Self {
        match err {
            CannedError::Invalid(text) => ApiError::Unprocessable(text),
            CannedError::ShortcutTaken(text) => ApiError::ShortcutTaken(text),
            CannedError::Media(err) => err.into(),
            CannedError::Store(err) => err.into(),
        }
    }
}

impl From<EnvelopeError> for ApiError {
    fn from(err: EnvelopeError) -> Self {
        ApiError::BadRequest(err.to_string())
    }
}

impl From<InboundError> for ApiError {
    fn from(err: InboundError) -> Self {
        match err {
            InboundError::NotPersisted(_) => ApiError::Internal(anyhow::anyhow!("{err}")),
            InboundError::Store(err) => err.into(),
            InboundError::Outbox(err) => err.into(),
        }
    }
}
