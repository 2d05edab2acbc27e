-- Reports walk each active conversation's members' messages and status changes: this index
-- holds only the rows the team writes (outgoing and internal ones), so that walk skips the
-- customers' messages, most of a long history. A customer's message never enters it.
CREATE INDEX messages_team ON messages(business_id, phone, sent_at)
    WHERE direction IN ('outgoing', 'internal');
