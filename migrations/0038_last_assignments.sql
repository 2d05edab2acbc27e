-- When each member was last given a conversation (by a member, by round robin or by taking it
-- over): round robin breaks ties by the longest since, which the conversations a member holds no
-- longer tell once one is taken back or handed on.
CREATE TABLE last_assignments (
    business_id TEXT NOT NULL REFERENCES businesses(id) ON DELETE CASCADE,
    user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    assigned_at BIGINT NOT NULL,
    PRIMARY KEY (business_id, user_id)
);
INSERT INTO last_assignments (business_id, user_id, assigned_at)
SELECT c.business_id, c.assignee_id, MAX(c.assigned_at) FROM contacts c
JOIN users u ON u.id = c.assignee_id
WHERE c.assignee_id IS NOT NULL AND c.assigned_at IS NOT NULL
GROUP BY c.business_id, c.assignee_id;
