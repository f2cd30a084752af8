/* eslint-disable */
// Generated from openapi.json by `npm run client:generate` (openapi-typescript). Do not edit.

export interface paths {
    "/api/v1/activities": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Organisation activity feed, newest first
         * @description `degraded_sources` names the data sources that failed during the read while the others still answered. Cost details are redacted for read-only roles.
         */
        get: operations["ApiV1ActivitiesList"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/admin/backups": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Backups, newest first */
        get: operations["ApiV1AdminBackupsList"];
        put?: never;
        /** Take a backup now; answers its manifest */
        post: operations["ApiV1AdminBackupsCreate"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/admin/backups/{backup_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A backup's manifest */
        get: operations["ApiV1AdminBackupsBackupIdGet"];
        put?: never;
        post?: never;
        /** Delete a backup */
        delete: operations["ApiV1AdminBackupsBackupIdDelete"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/admin/backups/restore": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Restore a backup (needs confirm: true); a pre_migration safety backup is taken first */
        post: operations["ApiV1AdminBackupsRestoreRestore"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/agents": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The roster, in stored order */
        get: operations["ApiV1AgentsList"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/agents/{agent_name}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One agent (name is case-insensitive; ETag header: its version, for If-Match) */
        get: operations["ApiV1AgentsAgentNameGet"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        /**
         * Edit an agent (managers: their department's agents); a model change applies from the next task
         * @description Only the given fields change; answers the new ETag. A stale If-Match answers 409 (4002).
         */
        patch: operations["ApiV1AgentsAgentNameUpdate"];
        trace?: never;
    };
    "/api/v1/agents/{agent_name}/activity": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The agent's activity timeline, newest first */
        get: operations["ApiV1AgentsAgentNameActivityActivity"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/agents/{agent_name}/autonomy": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The agent's autonomy in force, its sources and any downgrade */
        get: operations["ApiV1AgentsAgentNameAutonomyGet"];
        /** Set the agent's own autonomy (managers: their department's agents); lifts a downgrade */
        put: operations["ApiV1AgentsAgentNameAutonomySet"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/agents/{agent_name}/evaluate-level": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Evaluate promotion/demotion now from the performance summary
         * @description Applies an automatic move, or files an org:promote item (approval_id). 409: cooldown (4070), inactive (4071), off (4072).
         */
        post: operations["ApiV1AgentsAgentNameEvaluateLevelEvaluate"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/agents/{agent_name}/fire": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Fire and offboard an agent */
        post: operations["ApiV1AgentsAgentNameFireFire"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/agents/{agent_name}/fire-request": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Ask a second person to fire an agent: files an org:fire approval item
         * @description Approval by another person fires and offboards the agent. 409: fired (4099), a request waits (4075).
         */
        post: operations["ApiV1AgentsAgentNameFireRequestFireRequest"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/agents/{agent_name}/history": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Career events (hired, onboarded, status_changed, promoted, demoted, fired, offboarded), oldest first */
        get: operations["ApiV1AgentsAgentNameHistoryHistory"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/agents/{agent_name}/memories": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** An agent's memory entries, newest first */
        get: operations["ApiV1AgentsAgentNameMemoriesList"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/agents/{agent_name}/memories/{memory_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /** Delete one memory entry (an archived one: 409, 4040) */
        delete: operations["ApiV1AgentsAgentNameMemoriesMemoryIdDelete"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/agents/{agent_name}/memories/search": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** An agent's entries most relevant to a query, best first (503, 8040 without an embedder) */
        post: operations["ApiV1AgentsAgentNameMemoriesSearchSearch"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/agents/{agent_name}/offboarding": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The agent's offboarding record */
        get: operations["ApiV1AgentsAgentNameOffboardingGet"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/agents/{agent_name}/onboarding": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The agent's onboarding checklist */
        get: operations["ApiV1AgentsAgentNameOnboardingGet"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/agents/{agent_name}/onboarding/retry": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Run the failed onboarding steps again (409, 4083 when none failed) */
        post: operations["ApiV1AgentsAgentNameOnboardingRetryRetry"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/agents/{agent_name}/performance": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Performance over 7/30/90-day windows, from recorded task runs */
        get: operations["ApiV1AgentsAgentNamePerformancePerformance"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/agents/{agent_name}/release-name": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Free a terminated agent's name for a new hire (CEO)
         * @description The agent keeps its id and history (reach it by id). 409: not terminated (4073), released (4074).
         */
        post: operations["ApiV1AgentsAgentNameReleaseNameReleaseName"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/agents/{agent_name}/trust": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The agent's progressive trust: access level, strategy, a promotion waiting, the changes */
        get: operations["ApiV1AgentsAgentNameTrustGet"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/analytics/forecast": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Daily spend projections and when the period budget runs out */
        get: operations["ApiV1AnalyticsForecastForecast"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/analytics/overview": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Task, agent and budget figures with the 7-day spend */
        get: operations["ApiV1AnalyticsOverviewOverview"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/analytics/trends": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A metric over 7, 30 or 90 days in zero-filled UTC buckets (hourly for 7d, daily otherwise) */
        get: operations["ApiV1AnalyticsTrendsTrends"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/approvals": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Approval items filtered by status, risk level and action type, oldest first */
        get: operations["ApiV1ApprovalsList"];
        put?: never;
        /**
         * File an approval item (its deadline: ttl_seconds, else the timeout policy)
         * @description 400 with error_code 2056 for metadata beyond 20 keys or 256 characters.
         */
        post: operations["ApiV1ApprovalsCreate"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/approvals/{approval_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One approval item */
        get: operations["ApiV1ApprovalsApprovalIdGet"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/approvals/{approval_id}/approve": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Approve a pending item; its parked run executes the call and continues
         * @description 409 with error_code 4006 when already decided, 4023 when expired. A Manager decides only items of their department.
         */
        post: operations["ApiV1ApprovalsApprovalIdApproveApprove"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/approvals/{approval_id}/reject": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Reject a pending item with a reason; its parked run hears the refusal
         * @description 409 with error_code 4006 when already decided, 4023 when expired. A Manager decides only items of their department.
         */
        post: operations["ApiV1ApprovalsApprovalIdRejectReject"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/artifacts": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Artifacts filtered by task, creator and type, oldest first */
        get: operations["ApiV1ArtifactsList"];
        put?: never;
        /** Record an artifact of a task (its content is uploaded with PUT /artifacts/{artifact_id}/content) */
        post: operations["ApiV1ArtifactsCreate"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/artifacts/{artifact_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One artifact (an id that is not a safe file name: 400, 2065) */
        get: operations["ApiV1ArtifactsArtifactIdGet"];
        put?: never;
        post?: never;
        /** Delete an artifact: its content, then its metadata */
        delete: operations["ApiV1ArtifactsArtifactIdDelete"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/artifacts/{artifact_id}/content": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Download the content as an attachment; one byte Range is answered 206, an unsatisfiable one 416 (2069) */
        get: operations["ApiV1ArtifactsArtifactIdContentDownload"];
        /** Upload the content as a raw body (its Content-Type is kept) or as multipart/form-data (the file part); over the per-artifact limit: 413 (2002); storage full: 507 (8007) */
        put: operations["ApiV1ArtifactsArtifactIdContentUpload"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/audit": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Audit rows filtered by actor, action and time range, newest first
         * @description 400 with error_code 2057 when until is before since.
         */
        get: operations["ApiV1AuditList"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/audit/verify": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Verify the hash chain: ok, or the first row that was edited or follows a deleted one */
        get: operations["ApiV1AuditVerifyVerify"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/auth/change-password": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Change the own password; revokes every older session and returns a new token */
        post: operations["ApiV1AuthChangePasswordChangePassword"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/auth/login": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Log in with username and password */
        post: operations["ApiV1AuthLoginLogin"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/auth/logout": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Revoke the current session and clear cookies (idempotent) */
        post: operations["ApiV1AuthLogoutLogout"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/auth/me": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The authenticated user */
        get: operations["ApiV1AuthMeMe"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/auth/sessions": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Active sessions: own, or all (CEO only) */
        get: operations["ApiV1AuthSessionsListSessions"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/auth/sessions/{session_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /** Revoke a session (own, or any for the CEO) */
        delete: operations["ApiV1AuthSessionsSessionIdRevokeSession"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/auth/setup": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Create the first CEO account (only while none exists) */
        post: operations["ApiV1AuthSetupSetup"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/auth/ws-ticket": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Exchange the session for a one-time WebSocket ticket (30 s, single use) */
        post: operations["ApiV1AuthWsTicketWsTicket"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/budget": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Spending, limits and projections of the billing period */
        get: operations["ApiV1BudgetSummary"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/budget/agents/{agent_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** An agent's total spend */
        get: operations["ApiV1BudgetAgentsAgentIdAgent"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/budget/config": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The budget configuration */
        get: operations["ApiV1BudgetConfigConfig"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/budget/records": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Cost records, newest first, with daily_summary and period_summary over all matching records */
        get: operations["ApiV1BudgetRecordsRecords"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/company": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The company: identity, configuration, departments */
        get: operations["ApiV1CompanyGet"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/company/departments": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The company's departments, in order */
        get: operations["ApiV1CompanyDepartmentsDepartments"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/departments": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Departments, paginated */
        get: operations["ApiV1DepartmentsList"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/departments/{name}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One department (name is case-insensitive) */
        get: operations["ApiV1DepartmentsNameGet"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/departments/{name}/autonomy": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The department's autonomy level and what its agents inherit */
        get: operations["ApiV1DepartmentsNameAutonomyGet"];
        /** Set the department's autonomy (managers: their own department); recorded in the audit trail */
        put: operations["ApiV1DepartmentsNameAutonomySet"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/departments/{name}/ceremony-policy": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The department's ceremony policy (null: inherited) */
        get: operations["ApiV1DepartmentsNameCeremonyPolicyCeremonyPolicy"];
        /** Set the ceremony policy (managers: their own department only) */
        put: operations["ApiV1DepartmentsNameCeremonyPolicySetCeremonyPolicy"];
        post?: never;
        /** Clear the ceremony policy (inherit again) */
        delete: operations["ApiV1DepartmentsNameCeremonyPolicyClearCeremonyPolicy"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/departments/{name}/health": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Head count, utilisation, throughput, quality and cost of a department */
        get: operations["ApiV1DepartmentsNameHealthHealth"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/health": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Service health: version, uptime, persistence and wired subsystems */
        get: operations["ApiV1HealthGetHealth"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/health/live": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Liveness probe: the process answers (no dependencies checked) */
        get: operations["ApiV1HealthLiveGetLive"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/health/ready": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Readiness probe: database reachable and migrated, not shutting down */
        get: operations["ApiV1HealthReadyGetReady"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/hiring/requests": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Hiring requests, oldest first, filtered by status */
        get: operations["ApiV1HiringRequestsList"];
        put?: never;
        /** File a hiring request (candidates built; approved by filing unless a second person must decide) */
        post: operations["ApiV1HiringRequestsCreate"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/hiring/requests/{request_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One hiring request */
        get: operations["ApiV1HiringRequestsRequestIdGet"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/hiring/requests/{request_id}/instantiate": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Make the agent of an approved request; it starts onboarding
         * @description 409: pending 4080, rejected 4081, already instantiated 4082; a taken name 4001 or 4098.
         */
        post: operations["ApiV1HiringRequestsRequestIdInstantiateMake"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/hiring/requests/{request_id}/select": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Choose the candidate to instantiate */
        post: operations["ApiV1HiringRequestsRequestIdSelectSelect"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/mcp": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** MCP JSON-RPC: tasks, approvals, budget, messages as tools, within the caller role */
        post: operations["ApiV1McpHandle"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/meetings": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Meetings filtered by status and meeting type, oldest first */
        get: operations["ApiV1MeetingsList"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/meetings/{meeting_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One meeting, with its minutes when completed */
        get: operations["ApiV1MeetingsMeetingIdGet"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/meetings/trigger": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Hold, in parallel, a meeting of every type whose trigger is the event (none: an empty list) */
        post: operations["ApiV1MeetingsTriggerTrigger"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/memory/org": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Organisation facts, newest first */
        get: operations["ApiV1MemoryOrgListFacts"];
        put?: never;
        /** Record an organisation fact (a manager's: their department's) */
        post: operations["ApiV1MemoryOrgCreateFact"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/memory/org/{fact_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /** Delete an organisation fact (a manager: their department's) */
        delete: operations["ApiV1MemoryOrgFactIdDeleteFact"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/memory/status": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Whether a memory backend is wired (or why not), the embedder and the entry counts */
        get: operations["ApiV1MemoryStatusStatus"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/messages": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Messages of one channel (or of all), newest first; an unknown channel: 404 (3007) */
        get: operations["ApiV1MessagesList"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/messages/{message_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One message (3026 when there is none) */
        get: operations["ApiV1MessagesMessageIdGet"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/messages/channels": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The message channels: the default topics and the direct channels agents opened */
        get: operations["ApiV1MessagesChannelsChannels"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/personalities/presets": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Built-in and custom presets */
        get: operations["ApiV1PersonalitiesPresetsList"];
        put?: never;
        /** Create a custom preset (unset dimensions take their defaults) */
        post: operations["ApiV1PersonalitiesPresetsCreate"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/personalities/presets/{name}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One preset with every dimension */
        get: operations["ApiV1PersonalitiesPresetsNameGet"];
        /** Replace a custom preset (built-ins are read-only: 409) */
        put: operations["ApiV1PersonalitiesPresetsNameUpdate"];
        post?: never;
        /** Delete a custom preset (built-ins are read-only: 409); answers data null */
        delete: operations["ApiV1PersonalitiesPresetsNameDelete"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/personalities/schema": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** JSON Schema of a personality: the dimensions, their ranges and defaults */
        get: operations["ApiV1PersonalitiesSchemaSchema"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/projects": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Projects, filtered by status and lead */
        get: operations["ApiV1ProjectsList"];
        put?: never;
        /** Create a project (status planning); a duplicate name answers 409 */
        post: operations["ApiV1ProjectsCreate"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/projects/{project_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One project */
        get: operations["ApiV1ProjectsProjectIdGet"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/providers": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Registered providers (secrets never included) */
        get: operations["ApiV1ProvidersList"];
        put?: never;
        /** Register a provider; the registry and router reload without downtime */
        post: operations["ApiV1ProvidersCreate"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/providers/{name}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One provider */
        get: operations["ApiV1ProvidersNameGet"];
        /** Update a provider (omitted fields keep their values; clear_* flags remove secrets) */
        put: operations["ApiV1ProvidersNameUpdate"];
        post?: never;
        /** Remove a provider (409 while agents use its models) */
        delete: operations["ApiV1ProvidersNameDelete"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/providers/{name}/discover-models": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Query the provider's model endpoint and add new models (private addresses need an allowlist entry) */
        post: operations["ApiV1ProvidersNameDiscoverModelsDiscover"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/providers/{name}/health": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Health over the last 24 hours of calls (unknown without calls) */
        get: operations["ApiV1ProvidersNameHealthHealth"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/providers/{name}/models": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Models with capability flags (driver answers; defaults when unavailable) */
        get: operations["ApiV1ProvidersNameModelsModels"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/providers/{name}/models/{model_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /** Remove a local model (a "/" in the id is sent percent-encoded) */
        delete: operations["ApiV1ProvidersNameModelsModelIdDeleteModel"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/providers/{name}/models/{model_id}/config": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        /** Set the launch parameters of a local model */
        put: operations["ApiV1ProvidersNameModelsModelIdConfigConfigure"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/providers/{name}/models/pull": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Download a local model, streaming progress as server-sent events (data: {status, progress_percent, total_bytes, completed_bytes, error, done}; failures as event: error) */
        post: operations["ApiV1ProvidersNameModelsPullPull"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/providers/{name}/test": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Send a minimal probe call; reports latency, or the error and its 7xxx code */
        post: operations["ApiV1ProvidersNameTestTest"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/providers/discovery-policy": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Discovery address policy and its host:port allowlist */
        get: operations["ApiV1ProvidersDiscoveryPolicyGet"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/providers/discovery-policy/entries": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Trust a host:port for discovery and probing (bypasses the address checks) */
        post: operations["ApiV1ProvidersDiscoveryPolicyEntriesAdd"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/providers/discovery-policy/remove-entry": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Stop trusting a host:port */
        post: operations["ApiV1ProvidersDiscoveryPolicyRemoveEntryRemove"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/providers/from-preset": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Create a provider from a preset; a no-auth preset without models discovers its models at once */
        post: operations["ApiV1ProvidersFromPresetFromPreset"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/providers/presets": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The 11 built-in provider presets */
        get: operations["ApiV1ProvidersPresetsList"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/providers/probe-preset": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Probe a preset's candidate URLs in order (5 s each); the first reachable one and its model count */
        post: operations["ApiV1ProvidersProbePresetProbe"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/reports": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Stored reports without their content, newest first */
        get: operations["ApiV1ReportsList"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/reports/{report_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One stored report with its content */
        get: operations["ApiV1ReportsReportIdGet"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/reports/generate": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Generate and store a report of the last complete period */
        post: operations["ApiV1ReportsGenerateGenerate"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/reports/periods": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The periods a report can cover */
        get: operations["ApiV1ReportsPeriodsPeriods"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/settings": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Every setting with its value and source */
        get: operations["ApiV1SettingsList"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/settings/_schema": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Every setting definition */
        get: operations["ApiV1SettingsSchemaSchema"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/settings/_schema/{namespace}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A namespace's setting definitions */
        get: operations["ApiV1SettingsSchemaNamespaceNamespaceSchema"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/settings/{namespace}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A namespace's settings with their values and sources */
        get: operations["ApiV1SettingsNamespaceNamespace"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/settings/{namespace}/{key}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One setting (ETag header: its version, for If-Match) */
        get: operations["ApiV1SettingsNamespaceKeyGet"];
        /** Store a value (a restart-required one is stored and applies at the next start) */
        put: operations["ApiV1SettingsNamespaceKeyPut"];
        post?: never;
        /** Remove the stored value: the environment, YAML or default applies again */
        delete: operations["ApiV1SettingsNamespaceKeyRemove"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/settings/observability/sinks": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The log sinks this replica runs, disabled defaults included */
        get: operations["ApiV1SettingsObservabilitySinksList"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/settings/observability/sinks/_test": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Check candidate sink settings against every sink rule without applying them */
        post: operations["ApiV1SettingsObservabilitySinksTestTest"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/settings/security/export": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The security settings as one document */
        get: operations["ApiV1SettingsSecurityExportExport"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/settings/security/import": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Store a security settings document (every value checked before any is stored) */
        post: operations["ApiV1SettingsSecurityImportImport"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/setup/agent": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Add one agent by hand */
        post: operations["ApiV1SetupAgentAddAgent"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/setup/agents": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The roster in stored order (the position is the agent_index) */
        get: operations["ApiV1SetupAgentsAgents"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/setup/agents/{agent_index}/model": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        /** Set an agent's model */
        put: operations["ApiV1SetupAgentsAgentIndexModelSetModel"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/setup/agents/{agent_index}/name": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        /** Rename an agent */
        put: operations["ApiV1SetupAgentsAgentIndexNameSetName"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/setup/agents/{agent_index}/personality": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        /** Apply a personality preset to an agent */
        put: operations["ApiV1SetupAgentsAgentIndexPersonalitySetPersonality"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/setup/agents/{agent_index}/randomize-name": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Give an agent a random name from the chosen name locales */
        post: operations["ApiV1SetupAgentsAgentIndexRandomizeNameRandomizeName"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/setup/company": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Create the company, from a template (its agents are hired) or blank */
        post: operations["ApiV1SetupCompanyCreateCompany"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/setup/complete": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Complete setup: check, validate, reinitialise, persist (needs a company and a provider) */
        post: operations["ApiV1SetupCompleteComplete"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/setup/name-locales": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The locales random agent names come from */
        get: operations["ApiV1SetupNameLocalesNameLocales"];
        /** Choose the name locales (1–100 codes, or ["__all__"]) */
        put: operations["ApiV1SetupNameLocalesSetNameLocales"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/setup/name-locales/available": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Name locales by region, with display names */
        get: operations["ApiV1SetupNameLocalesAvailableAvailableLocales"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/setup/personality-presets": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Personality presets to choose from */
        get: operations["ApiV1SetupPersonalityPresetsPersonalityPresets"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/setup/status": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** What first-run setup still needs (public) */
        get: operations["ApiV1SetupStatusStatus"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/setup/templates": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Built-in company templates */
        get: operations["ApiV1SetupTemplatesTemplatesList"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/setup/templates/{template_name}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A template's departments and agents, as its defaults create them */
        get: operations["ApiV1SetupTemplatesTemplateNameTemplate"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/tasks": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Tasks filtered by status (default created), assignee and project */
        get: operations["ApiV1TasksList"];
        put?: never;
        /**
         * Create a task (status created; with assigned_to it is then assigned and its run starts)
         * @description 409 with error_code 4014 while no language-model provider is configured.
         */
        post: operations["ApiV1TasksCreate"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/tasks/{task_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One task */
        get: operations["ApiV1TasksTaskIdGet"];
        put?: never;
        post?: never;
        /** Delete a task */
        delete: operations["ApiV1TasksTaskIdDelete"];
        options?: never;
        head?: never;
        /** Edit a task; expected_version makes it a compare-and-set (409, 4003) */
        patch: operations["ApiV1TasksTaskIdUpdate"];
        trace?: never;
    };
    "/api/v1/tasks/{task_id}/cancel": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Cancel a task with a reason
         * @description 409: 4016 when already completed or cancelled; 4015 from created, blocked, failed or interrupted (not a transition: assign it first or delete it); 4003 when a concurrent write moved it on.
         */
        post: operations["ApiV1TasksTaskIdCancelCancel"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/tasks/{task_id}/coordinate": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Coordinate a task: decompose it, route the subtasks to agents, run them in waves, roll up
         * @description A failure in the decompose, route or validate phase: 400 naming the phase (2085, 2086, 2087; an unknown agent name 2088). Unknown task: 404 (3004). No model provider or no active agent: 503 (8001).
         */
        post: operations["ApiV1TasksTaskIdCoordinateRun"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/tasks/{task_id}/transition": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Move a task through its state machine (illegal moves: 409, 4015/4016/4017) */
        post: operations["ApiV1TasksTaskIdTransitionTransition"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/tools/servers": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Registered tool servers (secrets never included) */
        get: operations["ApiV1ToolsServersList"];
        put?: never;
        /** Register a tool server (stdio or Streamable HTTP); its tools are listed at once */
        post: operations["ApiV1ToolsServersCreate"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/tools/servers/{name}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One tool server with its health here */
        get: operations["ApiV1ToolsServersNameGet"];
        /** Update a tool server (omitted fields kept; a new destination needs its secrets again) */
        put: operations["ApiV1ToolsServersNameUpdate"];
        post?: never;
        /** Remove a tool server; its process stops */
        delete: operations["ApiV1ToolsServersNameDelete"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/tools/servers/{name}/test": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Connect and list the tools; reports latency, or the error and its code */
        post: operations["ApiV1ToolsServersNameTestTest"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/tools/servers/{name}/tools": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The tools the server last listed, with schemas and action types */
        get: operations["ApiV1ToolsServersNameToolsTools"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/users": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List accounts */
        get: operations["ApiV1UsersList"];
        put?: never;
        /** Create a human account (starts with must_change_password) */
        post: operations["ApiV1UsersCreate"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/users/{user_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One account */
        get: operations["ApiV1UsersUserIdGet"];
        put?: never;
        post?: never;
        /** Delete an account (its sessions are revoked) */
        delete: operations["ApiV1UsersUserIdDelete"];
        options?: never;
        head?: never;
        /** Change an account's role */
        patch: operations["ApiV1UsersUserIdUpdateRole"];
        trace?: never;
    };
}
export type webhooks = Record<string, never>;
export interface components {
    schemas: {
        AcceptanceCriterion: {
            description: string;
            met: boolean;
        };
        AcceptanceCriterionInput: {
            description: string;
            /** @default false */
            met: boolean;
        };
        ActivityEvent: {
            description: string;
            /** @enum {string} */
            event_type: "hired" | "onboarded" | "fired" | "offboarded" | "status_changed" | "promoted" | "demoted" | "task_started" | "task_completed" | "cost_incurred" | "tool_used" | "delegation_sent" | "delegation_received";
            related_ids: {
                [key: string]: string;
            };
            /** Format: date-time */
            timestamp: string;
        };
        AgentAuthorityUpdate: {
            /** @description Spending cap per task; 0: none */
            budget_limit?: number;
            can_approve?: string[];
            can_delegate_to?: string[];
            /** @description An agent name or a role; null: nobody */
            reports_to?: string | null;
        };
        AgentAutonomy: {
            agent_id: string;
            /**
             * @description The agent's own level (null: inherit)
             * @enum {string|null}
             */
            agent_level: "full" | "semi" | "supervised" | "locked" | null;
            agent_name: string;
            /** @description Actions approved without a person */
            auto_approve: ("code:read" | "code:write" | "code:create" | "code:delete" | "code:refactor" | "test:write" | "test:run" | "docs:write" | "vcs:read" | "vcs:commit" | "vcs:push" | "vcs:branch" | "deploy:staging" | "deploy:production" | "comms:internal" | "comms:external" | "budget:spend" | "budget:exceed" | "org:hire" | "org:fire" | "org:promote" | "db:query" | "db:mutate" | "db:admin" | "arch:decide" | "memory:read")[];
            /**
             * @description company.autonomy_level
             * @enum {string}
             */
            company_level: "full" | "semi" | "supervised" | "locked";
            /** @enum {string|null} */
            department_level: "full" | "semi" | "supervised" | "locked" | null;
            downgrade: components["schemas"]["AutonomyDowngrade"] | null;
            /** @description Actions that go to a person */
            human_approval: ("code:read" | "code:write" | "code:create" | "code:delete" | "code:refactor" | "test:write" | "test:run" | "docs:write" | "vcs:read" | "vcs:commit" | "vcs:push" | "vcs:branch" | "deploy:staging" | "deploy:production" | "comms:internal" | "comms:external" | "budget:spend" | "budget:exceed" | "org:hire" | "org:fire" | "org:promote" | "db:query" | "db:mutate" | "db:admin" | "arch:decide" | "memory:read")[];
            /**
             * @description The level in force
             * @enum {string}
             */
            level: "full" | "semi" | "supervised" | "locked";
            /** @description Whether the security agent reviews the calls at this level */
            security_agent: boolean;
            /** @enum {string} */
            source: "agent" | "department" | "company" | "default" | "downgrade";
        };
        AgentConfig: {
            authority: {
                [key: string]: unknown;
            };
            /**
             * @description null: inherit the department or company level
             * @enum {string|null}
             */
            autonomy_level: "full" | "semi" | "supervised" | "locked" | null;
            budget_limit_monthly: number | null;
            department: string;
            /** Format: date-time */
            hiring_date: string;
            /** Format: uuid */
            id: string;
            /** @enum {string} */
            level: "junior" | "mid" | "senior" | "lead" | "principal" | "director" | "vp" | "c_suite";
            memory: {
                [key: string]: unknown;
            };
            model: components["schemas"]["ModelConfig"];
            name: string;
            personality: {
                [key: string]: unknown;
            };
            personality_preset: string | null;
            role: string;
            skills: {
                [key: string]: unknown;
            };
            /** @enum {string} */
            status: "active" | "onboarding" | "on_leave" | "terminated";
            /** @enum {string} */
            tier: "small" | "medium" | "large";
            tools: {
                [key: string]: unknown;
            };
        };
        AgentMemoryUpdate: {
            /** @description null: keep */
            retention_days?: number | null;
            /** @enum {string} */
            type?: "persistent" | "project" | "session" | "none";
        };
        AgentModelUpdate: {
            /** @description A model id or alias some provider offers; null: none */
            fallback_model?: string | null;
            max_tokens?: number;
            /** @description An id or alias of `provider`'s models (or the current provider's) */
            model_id?: string;
            provider?: string;
            temperature?: number;
        };
        AgentPerformanceSummary: {
            agent_name: string;
            avg_completion_time_seconds: number | null;
            collaboration_score: number | null;
            cost_per_task: number | null;
            quality_score: number | null;
            success_rate_percent: number | null;
            tasks_completed_7d: number;
            tasks_completed_30d: number;
            tasks_completed_total: number;
            /** @enum {string} */
            trend_direction: "improving" | "stable" | "declining" | "insufficient_data";
            trends: components["schemas"]["TrendResult"][];
            windows: components["schemas"]["WindowMetrics"][];
        };
        AgentSpending: {
            agent_id: string;
            currency: string;
            total_cost_usd: number;
        };
        AgentSpendingSummary: {
            agent_id: string;
            agent_name: string | null;
            record_count: number;
            total_cost_usd: number;
        };
        AgentToolsUpdate: {
            /** @enum {string} */
            access_level?: "sandboxed" | "restricted" | "standard" | "elevated" | "custom";
            allowed?: string[];
            denied?: string[];
        };
        AgentTrust: {
            /**
             * @description The agent's tool access level in force
             * @enum {string}
             */
            access_level: "sandboxed" | "restricted" | "standard" | "elevated" | "custom";
            agent_id: string;
            agent_name: string;
            /** @description The latest changes, newest first (at most 50) */
            changes: components["schemas"]["TrustChange"][];
            /**
             * Format: date-time
             * @description null: never evaluated
             */
            evaluated_at: string | null;
            /** Format: date-time */
            last_changed_at: string | null;
            /** Format: date-time */
            last_verified_at: string;
            /** @description The approval item the promotion waits on */
            pending_approval_id: string | null;
            /**
             * @description A promotion waiting for a person
             * @enum {string|null}
             */
            pending_level: "sandboxed" | "restricted" | "standard" | "elevated" | "custom" | null;
            /**
             * @description security.trust_strategy
             * @enum {string}
             */
            strategy: "disabled" | "weighted" | "per_category" | "milestone";
            /** @description The weighted strategy's last score (0–1) */
            trust_score: number | null;
        };
        /** @description Success envelope; each operation types `data`. */
        ApiResponse: {
            /** @description The payload. */
            data: unknown;
            error: null;
            error_detail: null;
            /** @enum {boolean} */
            success: true;
        };
        ApprovalResponse: {
            action_type: string;
            /** Format: date-time */
            created_at: string;
            /** Format: date-time */
            decided_at: string | null;
            decided_by: string | null;
            decision_reason: string | null;
            description: string;
            /** Format: date-time */
            expires_at: string | null;
            id: string;
            metadata: {
                [key: string]: string;
            };
            /** @description The requesting agent id, username, or "system" */
            requested_by: string;
            /** @enum {string} */
            risk_level: "low" | "medium" | "high" | "critical";
            /** @description Seconds until expires_at, 0 once past; null: no TTL */
            seconds_remaining: number | null;
            /** @enum {string} */
            status: "pending" | "approved" | "rejected" | "expired";
            task_id: string | null;
            title: string;
            /** @enum {string} */
            urgency_level: "critical" | "high" | "normal" | "no_expiry";
        };
        ApproveRequest: {
            comment?: string | null;
        };
        Artifact: {
            /** @description The media type of the content; "" while there is none. */
            content_type: string;
            /** Format: date-time */
            created_at: string;
            created_by: string;
            /** @default  */
            description: string;
            id: string;
            path: string;
            project_id: string | null;
            /** @description SHA-256 of the content, hex; null while there is none. */
            sha256: string | null;
            /** @description 0 while there is no content. */
            size_bytes: number;
            task_id: string;
            /** @enum {string} */
            type: "code" | "tests" | "documentation";
        };
        AuditEntry: {
            /** @example approval.decided */
            action: string;
            /** @description A username, an agent id, or system */
            actor: string;
            /** Format: date-time */
            at: string;
            /** @description Redacted details */
            details: {
                [key: string]: unknown;
            };
            /** @description SHA-256 of prev_hash and this row */
            hash: string;
            id: string;
            /** @example success */
            outcome: string;
            /** @description SHA-256 of the previous row */
            prev_hash: string;
            request_id: string | null;
            /** @description Position in the chain, without gaps */
            seq: number;
            target: string | null;
        };
        AuditVerification: {
            /** @description The first row that does not hold */
            broken_seq: number | null;
            /** @description Rows checked */
            checked: number;
            ok: boolean;
            /** @enum {string|null} */
            reason: "hash_mismatch" | "link_mismatch" | "gap" | null;
        };
        AutoDowngradeConfig: {
            /** @enum {string} */
            boundary: "task_assignment";
            /** @description Ordered [from, to] pairs of model aliases */
            downgrade_map: string[][];
            enabled: boolean;
            /** @description Percent of the budget used */
            threshold: number;
        };
        AutonomyDowngrade: {
            /** @enum {string} */
            current_level: "full" | "semi" | "supervised" | "locked";
            detail: string;
            /** Format: date-time */
            downgraded_at: string;
            /**
             * @description The level in force before the first downgrade
             * @enum {string}
             */
            original_level: "full" | "semi" | "supervised" | "locked";
            /** @enum {string} */
            reason: "high_error_rate" | "budget_exhausted" | "security_incident";
            /** @enum {boolean} */
            requires_human_recovery: true;
        };
        AvailableLocalesResponse: {
            display_names: {
                [key: string]: string;
            };
            regions: {
                [key: string]: string[];
            };
        };
        BackupInfo: {
            backup_id: string;
            components: ("persistence" | "memory" | "config")[];
            /** @description Stored as a tar.gz archive */
            compressed: boolean;
            size_bytes: number;
            /** Format: date-time */
            timestamp: string;
            /** @enum {string} */
            trigger: "scheduled" | "manual" | "shutdown" | "startup" | "pre_migration";
        };
        BackupManifest: {
            backup_id: string;
            checksum: string;
            components: ("persistence" | "memory" | "config")[];
            /** @description Bytes of the backed-up files, before compression */
            size_bytes: number;
            /** @description Version of the service that took the backup */
            synthorg_version: string;
            /** Format: date-time */
            timestamp: string;
            /** @enum {string} */
            trigger: "scheduled" | "manual" | "shutdown" | "startup" | "pre_migration";
        };
        BudgetAlertConfig: {
            critical_at: number;
            hard_stop_at: number;
            warn_at: number;
        };
        BudgetConfig: {
            alerts: components["schemas"]["BudgetAlertConfig"];
            auto_downgrade: components["schemas"]["AutoDowngradeConfig"];
            /** @example EUR */
            currency: string;
            per_agent_daily_limit: number;
            per_task_limit: number;
            reset_day: number;
            risk_budget: components["schemas"]["RiskBudgetConfig"];
            total_monthly: number;
        };
        BudgetRecordsSummaries: {
            /** @description ISO 4217 code of the amounts */
            currency: string;
            /** @description Per UTC day, over every matching record */
            daily_summary: components["schemas"]["DailySummary"][];
            /** @description Over every matching record */
            period_summary: components["schemas"]["PeriodSummary"];
        };
        CancelTaskRequest: {
            reason: string;
        };
        CandidateCard: {
            department: string;
            /** @description At the model prices, for 1M input and 250k output tokens */
            estimated_monthly_cost: number;
            id: string;
            /** @enum {string} */
            level: "junior" | "mid" | "senior" | "lead" | "principal" | "director" | "vp" | "c_suite";
            model_id: string;
            model_provider: string;
            name: string;
            personality_preset: string;
            rationale: string;
            role: string;
            skills: string[];
            /** @description The template the role came from */
            template_source: string | null;
        };
        CareerEvent: {
            description: string;
            /** @enum {string} */
            event_type: "hired" | "onboarded" | "status_changed" | "promoted" | "demoted" | "fired" | "offboarded";
            initiated_by: string;
            metadata: {
                [key: string]: string;
            };
            /** Format: date-time */
            timestamp: string;
        };
        CeremonyPolicy: {
            auto_transition?: boolean | null;
            /** @enum {string|null} */
            strategy?: "task_driven" | "calendar" | "hybrid" | "event_driven" | "budget_driven" | "throughput_adaptive" | "external_trigger" | "milestone_driven" | null;
            /** @description Settings of the strategy, e.g. trigger, every_n_completions, duration_days */
            strategy_config?: {
                [key: string]: unknown;
            } | null;
            /** @description Greater than 0, at most 1 */
            transition_threshold?: number | null;
            /** @enum {string|null} */
            velocity_calculator?: "task_driven" | "calendar" | "multi_dimensional" | "budget" | "points_per_sprint" | null;
        };
        ChangePasswordRequest: {
            /** Format: password */
            current_password: string;
            /** Format: password */
            new_password: string;
        };
        Channel: {
            /** @example #engineering */
            name: string;
            /** @description Agents subscribed (both sides of a direct channel); empty: everyone. */
            subscribers: string[];
            /**
             * @default topic
             * @enum {string}
             */
            type: "topic" | "direct" | "broadcast";
        };
        CompanyAutonomy: {
            /** @enum {string} */
            level: "full" | "semi" | "supervised" | "locked";
        };
        CompanyConfig: {
            autonomy: components["schemas"]["CompanyAutonomy"];
            /** @description Monthly budget, in the company currency */
            budget_monthly: number;
            /** @enum {string|null} */
            ceremony_strategy: "task_driven" | "calendar" | "hybrid" | "event_driven" | "budget_driven" | "throughput_adaptive" | "external_trigger" | "milestone_driven" | null;
            /** @enum {string} */
            communication_pattern: "hybrid" | "hierarchical" | "event_driven" | "meeting_based" | "flat";
            /** @description ISO 4217 code */
            currency: string;
            /** @enum {string} */
            workflow: "kanban" | "agile_kanban";
        };
        CompanyResponse: {
            /** @description Agents of the company */
            agent_count: number;
            /** @description Every agent on the roster, in roster order */
            agents: components["schemas"]["AgentConfig"][];
            /** @description The same as `name`, under the name clients of the setup wizard read */
            company_name: string;
            config: components["schemas"]["CompanyConfig"];
            /** Format: date-time */
            created_at: string;
            departments: components["schemas"]["Department"][];
            description: string;
            id: string;
            name: string;
            /** @description The template it was created from (null: blank) */
            template_name: string | null;
            /** @description The template's company type, or custom */
            type: string;
            /** Format: date-time */
            updated_at: string;
        };
        CoordinateTaskRequest: {
            /** @description Agents that may take subtasks (unique, case-insensitive); null or absent: every active agent. */
            agent_names?: string[] | null;
            /** @description Stop after the first wave with a failed subtask; null: the coordination.fail_fast setting. */
            fail_fast?: boolean | null;
            /** @description Subtasks running at once in one wave; null: the coordination.max_concurrency_per_wave setting. */
            max_concurrency_per_wave?: number | null;
            /** @default 10 */
            max_subtasks: number;
        };
        CoordinationPhaseResult: {
            duration_seconds: number;
            /** @description Present exactly when success is false. */
            error?: string;
            /** @enum {string} */
            phase: "decompose" | "route" | "resolve_topology" | "validate" | "dispatch" | "rollup" | "update_parent";
            success: boolean;
        };
        CoordinationResultResponse: {
            /** @description Every phase succeeded. */
            is_success: boolean;
            parent_task_id: string;
            phases: components["schemas"]["CoordinationPhaseResult"][];
            /**
             * @description The resolved topology.
             * @enum {string}
             */
            topology: "sas" | "centralized" | "decentralized" | "context_dependent" | "auto";
            /** @description Cost of the coordination calls and of the subtasks (configured currency). */
            total_cost_usd: number;
            total_duration_seconds: number;
            wave_count: number;
        };
        CostRecord: {
            agent_id: string;
            /** @enum {string} */
            call_category: "productive" | "coordination" | "system" | "embedding";
            /** @description In the configured currency (the name is kept) */
            cost_usd: number;
            input_tokens: number;
            model: string;
            output_tokens: number;
            provider: string;
            task_id: string | null;
            /** Format: date-time */
            timestamp: string;
            total_tokens: number;
        };
        CostTrendPoint: {
            /** Format: date-time */
            timestamp: string;
            value: number;
        };
        CreateApprovalRequest: {
            /**
             * @description `category:action`
             * @example deploy:staging
             */
            action_type: string;
            description: string;
            /** @description String map; at most 20 keys, keys and values at most 256 characters */
            metadata?: {
                [key: string]: string;
            };
            /** @enum {string} */
            risk_level: "low" | "medium" | "high" | "critical";
            task_id?: string | null;
            title: string;
            ttl_seconds?: number | null;
        };
        CreateArtifactRequest: {
            /** @description The media type the content will have; an upload with its own Content-Type replaces it. */
            content_type?: string;
            /** @description The agent that made it. */
            created_by: string;
            /** @default  */
            description: string;
            /** @example src/app.ts */
            path: string;
            /** @description The project (404, 3003 when unknown). */
            project_id?: string;
            /** @description The task it belongs to (404, 3004 when unknown). */
            task_id: string;
            /** @enum {string} */
            type: "code" | "tests" | "documentation";
        };
        CreateFromPresetRequest: {
            /** @description Write-only; null or "********" keeps it; a new base_url or oauth_token_url needs it again (2028) */
            api_key?: string;
            /**
             * @default api_key
             * @enum {string}
             */
            auth_type: "api_key" | "oauth" | "custom_header" | "subscription" | "none";
            /** Format: uri */
            base_url?: string;
            models?: components["schemas"]["ModelEntry"][];
            name: string;
            preset_name: string;
            /** @description Used as the api key; needs tos_accepted. Write-only; null or "********" keeps it; a new base_url or oauth_token_url needs it again (2028) */
            subscription_token?: string;
            /** @description Accept the subscription terms; stamps tos_accepted_at */
            tos_accepted?: boolean;
            /** @description CEO: allowlist a refused base_url or oauth_token_url host:port in this request (audited); else 2014 */
            trust_address?: boolean;
        };
        CreateHiringRequest: {
            /** @description The new agent's monthly limit (null: none) */
            budget_limit_monthly?: number | null;
            /** @description One of the company's departments */
            department: string;
            /** @enum {string} */
            level: "junior" | "mid" | "senior" | "lead" | "principal" | "director" | "vp" | "c_suite";
            reason: string;
            /**
             * @example [
             *       "python",
             *       "api-design"
             *     ]
             */
            required_skills: string[];
            /** @example Backend Developer */
            role: string;
            /** @description Template for candidates (absent or null: the company's) */
            template_name?: string | null;
        };
        CreateOrgFactRequest: {
            /** @enum {string} */
            category: "core_policy" | "adr" | "procedure" | "convention";
            content: string;
            /** @description The CEO's choice (omitted: company-wide); a manager's is their own department. */
            department?: string;
        };
        CreatePersonalityPresetRequest: {
            /**
             * @description Inclination to cooperate and accommodate (0 = challenging, 1 = accommodating).
             * @default 0.5
             */
            agreeableness: number;
            /**
             * @description The working arrangement the agent prefers.
             * @default team
             * @enum {string}
             */
            collaboration: "independent" | "pair" | "team";
            /**
             * @description Free-form label for the tone the agent writes in.
             * @default neutral
             */
            communication_style: string;
            /**
             * @description How the agent handles disagreement.
             * @default collaborate
             * @enum {string}
             */
            conflict_approach: "avoid" | "accommodate" | "compete" | "compromise" | "collaborate";
            /**
             * @description Care, order and thoroughness (0 = loose, 1 = meticulous).
             * @default 0.5
             */
            conscientiousness: number;
            /**
             * @description How far the agent strays from conventional solutions.
             * @default medium
             * @enum {string}
             */
            creativity: "low" | "medium" | "high";
            /**
             * @description How the agent usually reaches decisions.
             * @default consultative
             * @enum {string}
             */
            decision_making: "analytical" | "intuitive" | "consultative" | "directive";
            /**
             * @description Prose summary of the personality, shown to people and to the model.
             * @default
             */
            description: string;
            /**
             * @description Drive to engage and communicate with others (0 = reserved, 1 = outgoing).
             * @default 0.5
             */
            extraversion: number;
            name: string;
            /**
             * @description Openness to new ideas and experience (0 = conventional, 1 = exploratory).
             * @default 0.5
             */
            openness: number;
            /**
             * @description How readily the agent accepts uncertain or risky options.
             * @default medium
             * @enum {string}
             */
            risk_tolerance: "low" | "medium" | "high";
            /**
             * @description Composure under pressure (0 = easily rattled, 1 = unflappable).
             * @default 0.5
             */
            stress_response: number;
            /**
             * @description Short adjectives that characterise the agent.
             * @default []
             */
            traits: string[];
            /**
             * @description How much detail the agent puts in its output.
             * @default balanced
             * @enum {string}
             */
            verbosity: "terse" | "balanced" | "verbose";
        };
        CreateProjectRequest: {
            /** @default 0 */
            budget: number;
            /**
             * Format: date
             * @description ISO 8601 date or date-time
             */
            deadline?: string;
            /** @default  */
            description: string;
            /** @description Agent name or id; null: none */
            lead?: string | null;
            name: string;
            /** @description Agent names or ids */
            team?: string[];
        };
        CreateProviderRequest: {
            /** @description Write-only; null or "********" keeps it; a new base_url or oauth_token_url needs it again (2028) */
            api_key?: string;
            /**
             * @default api_key
             * @enum {string}
             */
            auth_type: "api_key" | "oauth" | "custom_header" | "subscription" | "none";
            /** Format: uri */
            base_url?: string;
            custom_header_name?: string;
            /** @description Write-only; null or "********" keeps it; a new base_url or oauth_token_url needs it again (2028) */
            custom_header_value?: string;
            degradation?: components["schemas"]["Degradation"];
            /** @description Optional grouping for cross-validation */
            family?: string;
            /** @description Routing identifier; falls back to the provider name */
            gateway_provider?: string;
            models?: components["schemas"]["ModelEntry"][];
            name: string;
            oauth_client_id?: string;
            /** @description Write-only; null or "********" keeps it; a new base_url or oauth_token_url needs it again (2028) */
            oauth_client_secret?: string;
            oauth_scope?: string;
            /** Format: uri */
            oauth_token_url?: string;
            /** @description Preset the provider follows (local-model support, defaults) */
            preset_name?: string;
            quota?: components["schemas"]["Quota"];
            /** @description Used as the api key; needs tos_accepted. Write-only; null or "********" keeps it; a new base_url or oauth_token_url needs it again (2028) */
            subscription_token?: string;
            /** @description Accept the subscription terms; stamps tos_accepted_at */
            tos_accepted?: boolean;
            /** @description CEO: allowlist a refused base_url or oauth_token_url host:port in this request (audited); else 2014 */
            trust_address?: boolean;
        };
        CreateTaskRequest: {
            acceptance_criteria?: components["schemas"]["AcceptanceCriterionInput"][];
            /** @description Agent name or id; the task is created and then assigned (two transitions), which starts its run. Null or absent: unassigned */
            assigned_to?: string | null;
            /**
             * @description Per-task spending cap; 0 = none
             * @default 0
             */
            budget_limit: number;
            /** @description Who asked for the work */
            created_by: string;
            /** Format: date-time */
            deadline?: string | null;
            /** @description Ids of tasks this one depends on */
            dependencies?: string[];
            description: string;
            /**
             * @default medium
             * @enum {string}
             */
            estimated_complexity: "simple" | "medium" | "complex" | "epic";
            /** @default 1 */
            max_retries: number;
            parent_task_id?: string;
            /**
             * @default medium
             * @enum {string}
             */
            priority: "critical" | "high" | "medium" | "low";
            /** @description Project id or name */
            project: string;
            reviewers?: string[];
            title: string;
            /** @enum {string} */
            type: "development" | "design" | "research" | "review" | "meeting" | "admin" | "analysis";
        };
        CreateToolServerRequest: {
            /** @description Agents (id or name) who may use it */
            allowed_agents?: string[];
            /** @description Departments whose agents may use it */
            allowed_departments?: string[];
            args?: string[];
            auth_header_name?: string;
            /** @description Write-only; a new command, args or url needs it again (2901) */
            auth_header_value?: string;
            /** @description stdio: the program to start */
            command?: string;
            /** @description stdio: environment variables, all secret. Write-only; a new command, args or url needs it again (2901) */
            env?: {
                [key: string]: string;
            };
            name: string;
            /** @description Tool name to action type, over the one derived from its annotations */
            tool_actions?: {
                [key: string]: string;
            };
            /** @enum {string} */
            transport: "stdio" | "http";
            /** @description Adds the url's private host:port to the allowlist (CEO) */
            trust_address?: boolean;
            /** @description http: the Streamable HTTP endpoint */
            url?: string;
        };
        CreateUserRequest: {
            /** @description A manager's department: its authority is limited to it */
            department?: string;
            /** Format: password */
            password: string;
            /** @enum {string} */
            role: "ceo" | "manager" | "board_member" | "pair_programmer" | "observer";
            username: string;
        };
        CredentialsRequest: {
            /** Format: password */
            password: string;
            /** @example ceo */
            username: string;
        };
        DailySummary: {
            currency: string;
            /** Format: date */
            date: string;
            record_count: number;
            total_cost_usd: number;
            total_input_tokens: number;
            total_output_tokens: number;
        };
        Degradation: {
            /** @default [] */
            fallback_providers: string[];
            /** @default 300 */
            queue_max_wait_seconds: number;
            /**
             * @default alert
             * @enum {string}
             */
            strategy: "alert" | "fallback" | "queue";
        };
        DegradationResponse: {
            fallback_providers: string[];
            queue_max_wait_seconds: number;
            /** @enum {string} */
            strategy: "alert" | "fallback" | "queue";
        };
        Department: {
            /** @description Agents assigned to the department */
            agent_count: number;
            /** @enum {string|null} */
            autonomy_level: "full" | "semi" | "supervised" | "locked" | null;
            budget_percent: number;
            ceremony_policy: {
                [key: string]: unknown;
            } | null;
            /** @description The head's role or agent name */
            head: string | null;
            name: string;
            policies: {
                [key: string]: unknown;
            };
            reporting_lines: {
                [key: string]: unknown;
            }[];
            teams: {
                [key: string]: unknown;
            }[];
        };
        DepartmentAutonomy: {
            /**
             * @description The department's own level (null: inherit)
             * @enum {string|null}
             */
            autonomy_level: "full" | "semi" | "supervised" | "locked" | null;
            /**
             * @description company.autonomy_level
             * @enum {string}
             */
            company_level: "full" | "semi" | "supervised" | "locked";
            department: string;
            /**
             * @description What agents without a level of their own inherit (juniors never above semi)
             * @enum {string}
             */
            level: "full" | "semi" | "supervised" | "locked";
        };
        DepartmentHealth: {
            active_agent_count: number;
            agent_count: number;
            avg_performance_score: number | null;
            collaboration_score: number | null;
            cost_trend: components["schemas"]["CostTrendPoint"][];
            currency: string;
            department_cost_7d: number;
            department_name: string;
            health_score: number | null;
            task_success_rate: number | null;
            total_runs: number;
            utilization_degraded: boolean;
            utilization_percent: number;
        };
        DepartmentSpendingSummary: {
            department: string;
            record_count: number;
            total_cost_usd: number;
        };
        DiscoverModelsResponse: {
            discovered_models: string[];
            provider_name: string;
        };
        DiscoveryPolicyEntryRequest: {
            /** @example localhost:11434 */
            host_port: string;
        };
        DiscoveryPolicyResponse: {
            block_private_ips: boolean;
            entry_count: number;
            host_port_allowlist: string[];
        };
        ErrorDetail: {
            detail: string;
            /** @enum {string} */
            error_category: "auth" | "validation" | "not_found" | "conflict" | "rate_limit" | "budget_exhausted" | "provider_error" | "internal";
            error_code: number;
            instance: string;
            retry_after: number | null;
            retryable: boolean;
            title: string;
            /** Format: uri */
            type: string;
        };
        /** @description Error envelope (the default error body). */
        ErrorResponse: {
            data: null;
            error: string;
            error_detail: components["schemas"]["ErrorDetail"];
            /** @enum {boolean} */
            success: false;
        };
        FireAgentRequest: {
            details?: string;
            /** @enum {string} */
            reason: "manual" | "performance" | "budget" | "project_completion";
        };
        ForecastPoint: {
            /**
             * Format: date
             * @example 2026-11-26
             */
            day: string;
            projected_spend_usd: number;
        };
        ForecastResponse: {
            avg_daily_spend_usd: number;
            /** @description Share of the lookback span with spend */
            confidence: number;
            /** @example EUR */
            currency: string;
            /** @description From tomorrow, one per day of the horizon */
            daily_projections: components["schemas"]["ForecastPoint"][];
            /** @description Days until the period budget is spent at the average rate; null without a budget or spend */
            days_until_exhausted: number | null;
            horizon_days: number;
            projected_total_usd: number;
        };
        GenerateReportRequest: {
            /**
             * @description The last complete period: daily = the previous UTC day, weekly = previous Monday to Monday, monthly = previous 1st to 1st
             * @enum {string}
             */
            period: "daily" | "weekly" | "monthly";
            /**
             * @default comprehensive
             * @enum {string}
             */
            template: "spending_summary" | "performance_metrics" | "task_completion" | "risk_trends" | "comprehensive";
        };
        HealthStatus: {
            /** @description Event bus available; null when not configured */
            message_bus: boolean | null;
            /** @description Database reachable and migrated; null when not configured */
            persistence: boolean | null;
            persistence_detail: components["schemas"]["PersistenceStatus"];
            /**
             * @description ok: every wired dependency up; degraded: some; down: none
             * @enum {string}
             */
            status: "ok" | "degraded" | "down";
            subsystems: components["schemas"]["SubsystemStatus"][];
            /** @description Seconds since the process started */
            uptime_seconds: number;
            /** @example 0.6.1 */
            version: string;
        };
        HiringRequest: {
            agent_id: string | null;
            approval_id: string | null;
            budget_limit_monthly: number | null;
            candidates: components["schemas"]["CandidateCard"][];
            /** Format: date-time */
            created_at: string;
            decided_by: string | null;
            department: string;
            id: string;
            /** @enum {string} */
            level: "junior" | "mid" | "senior" | "lead" | "principal" | "director" | "vp" | "c_suite";
            reason: string;
            requested_by: string;
            required_skills: string[];
            role: string;
            selected_candidate_id: string | null;
            /** @enum {string} */
            status: "pending" | "approved" | "rejected" | "instantiated";
            template_name: string | null;
        };
        ImportSecurityConfigRequest: {
            /** @description Security settings by key (a subset is allowed); every value is checked before any is stored */
            config: {
                [key: string]: unknown;
            };
        };
        LevelCriterion: {
            /** @enum {string} */
            comparison: ">=" | "<";
            /** @enum {string} */
            direction: "promotion" | "demotion";
            met: boolean;
            /** @enum {string} */
            name: "quality_score" | "success_rate" | "tasks_completed";
            threshold: number;
            value: number | null;
        };
        LevelEvaluation: {
            agent_name: string;
            approval_id: string | null;
            criteria: components["schemas"]["LevelCriterion"][];
            /**
             * @description pending_approval: a person decides (see approval_id)
             * @enum {string}
             */
            decision: "promoted" | "demoted" | "pending_approval" | "no_change";
            demotion_criteria_met: number;
            /** Format: date-time */
            evaluated_at: string;
            /** @enum {string} */
            level: "junior" | "mid" | "senior" | "lead" | "principal" | "director" | "vp" | "c_suite";
            min_criteria_met: number;
            promotion_criteria_met: number;
            reason: string;
            /** @enum {string|null} */
            to_level: "junior" | "mid" | "senior" | "lead" | "principal" | "director" | "vp" | "c_suite" | null;
        };
        LocalModelParams: {
            num_batch?: number | null;
            num_ctx?: number | null;
            num_gpu_layers?: number | null;
            num_threads?: number | null;
            repeat_penalty?: number | null;
        };
        MeetingActionItem: {
            assignee_id: string | null;
            description: string;
            /** @enum {string} */
            priority: "critical" | "high" | "medium" | "low";
        };
        MeetingAgenda: {
            context: string;
            items: components["schemas"]["MeetingAgendaItem"][];
            title: string;
        };
        MeetingAgendaItem: {
            description: string;
            presenter_id: string | null;
            title: string;
        };
        MeetingContribution: {
            agent_id: string;
            content: string;
            input_tokens: number;
            output_tokens: number;
            /** @enum {string} */
            phase: "agenda_broadcast" | "round_robin_turn" | "position_paper" | "input_gathering" | "discussion" | "synthesis" | "summary";
            /** Format: date-time */
            timestamp: string;
            turn_number: number;
        };
        MeetingMinutes: {
            action_items: components["schemas"]["MeetingActionItem"][];
            agenda: components["schemas"]["MeetingAgenda"];
            conflicts_detected: boolean;
            contributions: components["schemas"]["MeetingContribution"][];
            decisions: string[];
            /** Format: date-time */
            ended_at: string;
            leader_id: string;
            meeting_id: string;
            participant_ids: string[];
            /** @enum {string} */
            protocol_type: "round_robin" | "position_papers" | "structured_phases";
            /** Format: date-time */
            started_at: string;
            summary: string;
            total_input_tokens: number;
            total_output_tokens: number;
        };
        MeetingResponse: {
            /** @description Participant ids by total tokens, most first. */
            contribution_rank: string[];
            /** @description Present exactly when failed or budget_exhausted. */
            error_message: string | null;
            /** @description Ended minus started; null without minutes. */
            meeting_duration_seconds: number | null;
            meeting_id: string;
            meeting_type_name: string;
            /** @description Present exactly when completed. */
            minutes: components["schemas"]["MeetingMinutes"] | null;
            /** @description Participant id -> name. */
            participant_names: {
                [key: string]: string;
            };
            /** @enum {string} */
            protocol_type: "round_robin" | "position_papers" | "structured_phases";
            /** @enum {string} */
            status: "scheduled" | "in_progress" | "completed" | "failed" | "cancelled" | "budget_exhausted";
            /** @description The meeting’s token budget (`duration_tokens`). */
            token_budget: number;
            /** @description Participant id -> input plus output tokens. */
            token_usage_by_participant: {
                [key: string]: number;
            };
        };
        MemoryEntry: {
            agent_id: string;
            /** @description Set when archived (read-only). */
            archive_id: string | null;
            /** @enum {string} */
            category: "working" | "episodic" | "semantic" | "procedural" | "social";
            content: string;
            /** Format: date-time */
            created_at: string;
            /** Format: date-time */
            expires_at: string | null;
            id: string;
            /** @enum {string} */
            level: "session" | "project" | "persistent";
            metadata: {
                [key: string]: unknown;
            };
            project: string | null;
            /** @description Search results only: cosine relevance, 0 to 1. */
            relevance_score?: number;
            task_id: string | null;
            /** Format: date-time */
            updated_at: string | null;
        };
        MemoryReembeddingStatus: {
            /** @description Entries and facts embedded again so far. */
            done: number;
            /** @description The embedder retrieval uses (provider/model/dims): the old one until a re-embedding is done. */
            retrieval_embedder: string | null;
            /**
             * @description running: stored vectors are being made again by a newly configured embedder.
             * @enum {string}
             */
            state: "idle" | "running";
            /** @description The embedder a running re-embedding moves to. */
            target_embedder: string | null;
            /** @description Entries and facts to embed again in all. */
            total: number;
        };
        MemorySearchRequest: {
            /** @enum {string} */
            category?: "working" | "episodic" | "semantic" | "procedural" | "social";
            /** @default 10 */
            limit: number;
            query: string;
        };
        MemoryStatus: {
            /** @description The memory store: embedded (the service database and an in-memory index per replica; the setting memory.backend mem0 is its alias), or the unknown value configured. */
            backend: string;
            /** @description The code of the reason. */
            code: number | null;
            embedder_dims: number | null;
            embedder_model: string | null;
            embedder_provider: string | null;
            entries: number;
            /** @description Entries in this replica's index. */
            indexed: number;
            org_facts: number;
            /** @description Why not, when not wired. */
            reason: string | null;
            /** @description Re-embedding after a change of embedder. */
            reembedding: components["schemas"]["MemoryReembeddingStatus"];
            /** @description Whether a memory backend is wired. */
            wired: boolean;
        };
        Message: {
            attachments: components["schemas"]["MessageAttachment"][];
            channel: string;
            content: string;
            /** @description The sender: an agent name, or `system`. */
            from: string;
            /** Format: uuid */
            id: string;
            metadata: components["schemas"]["MessageMetadata"];
            /**
             * @default normal
             * @enum {string}
             */
            priority: "low" | "normal" | "high" | "urgent";
            /** Format: date-time */
            timestamp: string;
            /** @description The recipient: an agent name, or the channel. */
            to: string;
            /** @enum {string} */
            type: "task_update" | "question" | "announcement" | "review_request" | "approval" | "delegation" | "status_report" | "escalation" | "meeting_contribution" | "hr_notification";
        };
        MessageAttachment: {
            /** @description An artifact id, a path or a URL. */
            ref: string;
            /** @enum {string} */
            type: "artifact" | "file" | "link";
        };
        MessageMetadata: {
            /** @description Redacted (null) for read-only roles. */
            cost_usd: number | null;
            /** @description [key, value] pairs. */
            extra: string[][];
            project_id: string | null;
            task_id: string | null;
            tokens_used: number | null;
        };
        ModelConfig: {
            fallback_model: string | null;
            max_tokens: number;
            model_id: string | null;
            provider: string | null;
            temperature: number;
        };
        ModelEntry: {
            alias?: string | null;
            /** @default 0 */
            cost_per_1k_input: number;
            /** @default 0 */
            cost_per_1k_output: number;
            estimated_latency_ms?: number | null;
            id: string;
            local_params?: components["schemas"]["LocalModelParams"] | null;
            /** @default 8192 */
            max_context: number;
        };
        ModelEntryResponse: {
            alias: string | null;
            cost_per_1k_input: number;
            cost_per_1k_output: number;
            estimated_latency_ms: number | null;
            id: string;
            local_params: components["schemas"]["LocalModelParams"] | null;
            max_context: number;
        };
        OffboardingRecord: {
            agent_id: string;
            agent_name: string;
            /** Format: date-time */
            completed_at: string | null;
            details: string;
            firing_request_id: string;
            memory_archive_id: string | null;
            org_memories_promoted: number;
            /** @enum {string} */
            reason: "manual" | "performance" | "budget" | "project_completion";
            requested_by: string;
            /** Format: date-time */
            started_at: string;
            steps: components["schemas"]["OffboardingStep"][];
            tasks_reassigned: string[];
            team_notification_sent: boolean;
        };
        OffboardingStep: {
            /** Format: date-time */
            completed_at: string | null;
            detail: string;
            name: string;
            /** @enum {string} */
            state: "pending" | "done" | "skipped";
        };
        Onboarding: {
            agent_id: string;
            agent_name: string;
            /** Format: date-time */
            completed_at: string | null;
            hiring_request_id: string | null;
            /** Format: date-time */
            started_at: string;
            steps: components["schemas"]["OnboardingStep"][];
        };
        OnboardingStep: {
            attempts: number;
            /** Format: date-time */
            completed_at: string | null;
            /** @enum {string} */
            name: "company_context" | "project_briefing" | "team_introductions";
            reason: string | null;
            /** @enum {string} */
            state: "running" | "done" | "failed";
            summary: string | null;
            /** @description The task the agent runs it in */
            task_id: string;
        };
        OrgFact: {
            author: string;
            /** @enum {string} */
            category: "core_policy" | "adr" | "procedure" | "convention";
            content: string;
            /** Format: date-time */
            created_at: string;
            /** @description null: company-wide. */
            department: string | null;
            id: string;
        };
        OverviewMetrics: {
            /** @description Employed agents with a task in progress */
            active_agents_count: number;
            /** @description What is left of the current billing period's budget (never negative) */
            budget_remaining_usd: number;
            /** @description Share of the monthly budget spent this period, in percent; may pass 100 */
            budget_used_percent: number;
            /** @description Spend of the last 7 UTC days, today last */
            cost_7d_trend: components["schemas"]["TrendDataPoint"][];
            /** @example EUR */
            currency: string;
            idle_agents_count: number;
            /** @description Every status, zero included */
            tasks_by_status?: {
                assigned: number;
                blocked: number;
                cancelled: number;
                completed: number;
                created: number;
                failed: number;
                in_progress: number;
                in_review: number;
                interrupted: number;
            };
            /** @description Employed agents (all but terminated) */
            total_agents: number;
            /** @description Everything spent, in the configured currency */
            total_cost_usd: number;
            total_tasks: number;
        };
        /** @description One page of a list; each operation types the items of `data`. */
        PaginatedResponse: {
            data: unknown[];
            degraded_sources: string[];
            error: null;
            error_detail: null;
            pagination: components["schemas"]["PaginationMeta"];
            /** @enum {boolean} */
            success: true;
        };
        PaginationMeta: {
            limit: number;
            offset: number;
            total: number;
        };
        PeriodSummary: {
            avg_cost_usd: number;
            currency: string;
            record_count: number;
            total_cost_usd: number;
            total_input_tokens: number;
            total_output_tokens: number;
        };
        PersistenceStatus: {
            /** @enum {string} */
            backend: "sqlite" | "postgres";
            /** @enum {string} */
            state: "connecting" | "ready" | "swapping" | "failed" | "closed";
        };
        PersonalityPresetInfoResponse: {
            description: string;
            name: string;
        };
        PersonalityPresetResponse: {
            agreeableness: number;
            /** @enum {string} */
            collaboration: "independent" | "pair" | "team";
            communication_style: string;
            /** @enum {string} */
            conflict_approach: "avoid" | "accommodate" | "compete" | "compromise" | "collaborate";
            conscientiousness: number;
            /** Format: date-time */
            created_at: string | null;
            /** @enum {string} */
            creativity: "low" | "medium" | "high";
            /** @enum {string} */
            decision_making: "analytical" | "intuitive" | "consultative" | "directive";
            description: string;
            extraversion: number;
            name: string;
            openness: number;
            /** @enum {string} */
            risk_tolerance: "low" | "medium" | "high";
            /** @enum {string} */
            source: "builtin" | "custom";
            stress_response: number;
            traits: string[];
            /** Format: date-time */
            updated_at: string | null;
            /** @enum {string} */
            verbosity: "terse" | "balanced" | "verbose";
        };
        PersonalityPresetsListResponse: {
            presets: components["schemas"]["PersonalityPresetInfoResponse"][];
        };
        PersonalityPresetSummaryResponse: {
            description: string;
            name: string;
            /** @enum {string} */
            source: "builtin" | "custom";
            traits: string[];
        };
        ProbePresetRequest: {
            preset_name: string;
        };
        ProbePresetResponse: {
            candidates_tried: number;
            model_count: number;
            /** @description First reachable candidate URL */
            url: string | null;
        };
        ProbeStatusResponse: {
            /** @enum {string} */
            status: "alive" | "ready";
        };
        /** @description RFC 9457 error body, sent when the Accept header prefers application/problem+json. */
        ProblemDetail: {
            detail: string;
            /** @enum {string} */
            error_category: "auth" | "validation" | "not_found" | "conflict" | "rate_limit" | "budget_exhausted" | "provider_error" | "internal";
            error_code: number;
            instance: string;
            retry_after: number | null;
            retryable: boolean;
            status: number;
            title: string;
            /** Format: uri */
            type: string;
        };
        Project: {
            budget: number;
            /** Format: date-time */
            created_at: string;
            deadline: string | null;
            description: string;
            /** @example proj-0123456789ab */
            id: string;
            /** @description Lead agent id */
            lead: string | null;
            name: string;
            /** @enum {string} */
            status: "planning" | "active" | "on_hold" | "completed" | "cancelled";
            task_ids: string[];
            /** @description Agent ids */
            team: string[];
            /** Format: date-time */
            updated_at: string;
        };
        ProviderHealthResponse: {
            avg_response_time_ms: number | null;
            calls_last_24h: number;
            error_rate_percent_24h: number;
            /** @enum {string} */
            health_status: "up" | "degraded" | "down" | "unknown";
            /** Format: date-time */
            last_check_timestamp: string | null;
            total_cost_24h: number;
            total_tokens_24h: number;
        };
        ProviderModelResponse: {
            alias: string | null;
            cost_per_1k_input: number;
            cost_per_1k_output: number;
            estimated_latency_ms: number | null;
            id: string;
            local_params: components["schemas"]["LocalModelParams"] | null;
            max_context: number;
            supports_streaming: boolean;
            supports_tools: boolean;
            supports_vision: boolean;
        };
        ProviderPresetResponse: {
            /** @enum {string} */
            auth_type: "api_key" | "oauth" | "custom_header" | "subscription" | "none";
            candidate_urls: string[];
            default_base_url: string | null;
            default_models: components["schemas"]["ModelEntryResponse"][];
            description: string;
            display_name: string;
            /** @enum {string} */
            driver: "openai_compatible" | "anthropic" | "ollama";
            gateway_provider: string;
            name: string;
            requires_base_url: boolean;
            supported_auth_types: ("api_key" | "oauth" | "custom_header" | "subscription" | "none")[];
            supports_model_config: boolean;
            supports_model_delete: boolean;
            supports_model_pull: boolean;
        };
        ProviderResponse: {
            /** @enum {string} */
            auth_type: "api_key" | "oauth" | "custom_header" | "subscription" | "none";
            base_url: string | null;
            /** Format: date-time */
            created_at: string;
            custom_header_name: string | null;
            degradation: components["schemas"]["DegradationResponse"];
            /**
             * @description The wire protocol (driver) used
             * @enum {string}
             */
            driver: "openai_compatible" | "anthropic" | "ollama";
            family: string | null;
            /** @description As configured; null falls back to the name */
            gateway_provider: string | null;
            has_api_key: boolean;
            has_custom_header: boolean;
            has_oauth_credentials: boolean;
            has_subscription_token: boolean;
            models: components["schemas"]["ModelEntryResponse"][];
            name: string;
            oauth_client_id: string | null;
            oauth_scope: string | null;
            oauth_token_url: string | null;
            preset_name: string | null;
            quota: components["schemas"]["Quota"];
            supports_model_config: boolean;
            supports_model_delete: boolean;
            supports_model_pull: boolean;
            /** Format: date-time */
            tos_accepted_at: string | null;
            /** Format: date-time */
            updated_at: string;
            version: number;
        };
        PullModelRequest: {
            model_name: string;
        };
        Quota: {
            requests_per_day?: number | null;
            requests_per_hour?: number | null;
            requests_per_minute?: number | null;
            tokens_per_day?: number | null;
            tokens_per_hour?: number | null;
            tokens_per_minute?: number | null;
        };
        RejectRequest: {
            reason: string;
        };
        Report: {
            content: components["schemas"]["ReportContent"];
            /**
             * Format: date-time
             * @description End of the period (excluded)
             */
            end: string;
            /** Format: date-time */
            generated_at: string;
            /** @description User id, or `system` for a scheduled report */
            generated_by: string;
            has_performance: boolean;
            has_risk_trends: boolean;
            has_spending: boolean;
            has_task_completion: boolean;
            /** Format: uuid */
            id: string;
            /** @enum {string} */
            period: "daily" | "weekly" | "monthly";
            /**
             * Format: date-time
             * @description Start of the period (included)
             */
            start: string;
            /** @enum {string} */
            template: "spending_summary" | "performance_metrics" | "task_completion" | "risk_trends" | "comprehensive";
            /** @enum {string} */
            trigger: "manual" | "scheduled";
        };
        ReportAgentPerformance: {
            agent_id: string;
            /** @description null for an agent no longer on the roster */
            agent_name: string | null;
            avg_duration_seconds: number;
            avg_quality_score: number | null;
            department: string | null;
            success_rate: number;
            tasks_completed: number;
            tasks_failed: number;
            total_cost_usd: number;
        };
        ReportContent: {
            performance?: components["schemas"]["ReportPerformanceSection"];
            risk_trends?: components["schemas"]["ReportRiskTrendsSection"];
            spending?: components["schemas"]["ReportSpendingSection"];
            task_completion?: components["schemas"]["ReportTaskCompletionSection"];
        };
        ReportDepartmentCompletion: {
            completed: number;
            completion_rate: number;
            /** @description null for runs of agents no longer on the roster */
            department: string | null;
            failed: number;
            runs: number;
        };
        ReportPerformanceSection: {
            agents: components["schemas"]["ReportAgentPerformance"][];
        };
        ReportRiskDay: {
            /** Format: date */
            date: string;
            risk_units: number;
        };
        ReportRiskTrendsSection: {
            by_action_type: {
                [key: string]: number;
            };
            by_agent: {
                [key: string]: number;
            };
            daily: components["schemas"]["ReportRiskDay"][];
            total_risk_units: number;
        };
        ReportSpendDay: {
            cost_usd: number;
            /** Format: date */
            date: string;
            record_count: number;
        };
        ReportSpendingSection: {
            /** @description Change against the previous period; null when it cost nothing */
            change_percent: number | null;
            /** @example EUR */
            currency: string;
            daily: components["schemas"]["ReportSpendDay"][];
            previous_period_cost_usd: number;
            record_count: number;
            total_cost_usd: number;
            total_input_tokens: number;
            total_output_tokens: number;
        };
        ReportSummary: {
            /**
             * Format: date-time
             * @description End of the period (excluded)
             */
            end: string;
            /** Format: date-time */
            generated_at: string;
            /** @description User id, or `system` for a scheduled report */
            generated_by: string;
            has_performance: boolean;
            has_risk_trends: boolean;
            has_spending: boolean;
            has_task_completion: boolean;
            /** Format: uuid */
            id: string;
            /** @enum {string} */
            period: "daily" | "weekly" | "monthly";
            /**
             * Format: date-time
             * @description Start of the period (included)
             */
            start: string;
            /** @enum {string} */
            template: "spending_summary" | "performance_metrics" | "task_completion" | "risk_trends" | "comprehensive";
            /** @enum {string} */
            trigger: "manual" | "scheduled";
        };
        ReportTaskCompletionSection: {
            by_department: components["schemas"]["ReportDepartmentCompletion"][];
            completed: number;
            completion_rate: number;
            failed: number;
            runs: number;
        };
        RestoreRequest: {
            /** @description The backup to restore (12 hex digits) */
            backup_id: string;
            /** @description Components to restore; null or absent: every component in the manifest */
            components?: ("persistence" | "memory" | "config")[] | null;
            /** @description Must be true: a restore replaces live data */
            confirm: boolean;
        };
        RestoreResponse: {
            manifest: components["schemas"]["BackupManifest"];
            /** @description True when a restored component takes effect only after a restart (the config file) */
            restart_required: boolean;
            restored_components: ("persistence" | "memory" | "config")[];
            /** @description The pre_migration backup taken just before */
            safety_backup_id: string;
        };
        RiskBudgetAlertConfig: {
            critical_at: number;
            warn_at: number;
        };
        RiskBudgetConfig: {
            alerts: components["schemas"]["RiskBudgetAlertConfig"];
            enabled: boolean;
            /** @description 0 is unlimited */
            per_agent_daily_risk_limit: number;
            /** @description 0 is unlimited */
            per_task_risk_limit: number;
            /** @description 0 is unlimited */
            total_daily_risk_limit: number;
        };
        /** @description The security namespace as one document, to copy to another deployment */
        SecurityConfigExport: {
            /** @description Each security setting by key, with its typed value (boolean, number or text) */
            config: {
                [key: string]: unknown;
            };
            /** @description Set when custom security policies exist that the document does not carry; this server has none */
            custom_policies_warning: string | null;
            /** Format: date-time */
            exported_at: string;
        };
        SelectCandidateRequest: {
            candidate_id: string;
        };
        SessionResponse: {
            /** Format: date-time */
            created_at: string;
            /** Format: date-time */
            expires_at: string;
            ip_address: string | null;
            is_current: boolean;
            /** Format: date-time */
            last_active_at: string;
            session_id: string;
            user_agent: string | null;
            user_id: string;
            username: string;
        };
        /** @description One runtime-editable setting: type, default and rules */
        SettingDefinition: {
            /** @description Code default, as text */
            default: string | null;
            description: string;
            enum_values: string[];
            group: string;
            key: string;
            /** @enum {string} */
            level: "basic" | "advanced";
            max_value: number | null;
            min_value: number | null;
            /** @enum {string} */
            namespace: "api" | "company" | "providers" | "memory" | "budget" | "security" | "coordination" | "observability" | "backup";
            /** @description Read at startup: a change takes effect at the next restart */
            restart_required: boolean;
            /** @description Encrypted at rest; its value is masked in every read */
            sensitive: boolean;
            /** @enum {string} */
            type: "str" | "int" | "float" | "bool" | "enum" | "json";
            validator_pattern: string | null;
            /** @description Dotted path of the value in the YAML file */
            yaml_path: string | null;
        };
        /** @description A setting with its current value and where the value came from */
        SettingEntry: {
            definition: components["schemas"]["SettingDefinition"];
            /** @description A restart-required value that is stored but not running yet (applies at restart) */
            pending_restart: boolean;
            /** @enum {string} */
            source: "db" | "env" | "yaml" | "default";
            /**
             * Format: date-time
             * @description When the stored value changed
             */
            updated_at: string | null;
            /** @description Always text; empty when no source gives a value; masked when sensitive */
            value: string;
        };
        SetupAgentRequest: {
            /**
             * @description Omit to inherit; junior agents cannot be full
             * @enum {string}
             */
            autonomy_level?: "full" | "semi" | "supervised" | "locked";
            budget_limit_monthly?: number;
            /** @default engineering */
            department: string;
            /**
             * @default mid
             * @enum {string}
             */
            level: "junior" | "mid" | "senior" | "lead" | "principal" | "director" | "vp" | "c_suite";
            model_id: string;
            model_provider: string;
            /** @description Addressable as /agents/{agent_name} */
            name: string;
            /** @default pragmatic_builder */
            personality_preset: string;
            role: string;
        };
        SetupAgentsListResponse: {
            agent_count: number;
            /** @description In stored order: the index is the agent_index */
            agents: components["schemas"]["SetupAgentSummary"][];
        };
        SetupAgentSummary: {
            department: string;
            /** @enum {string|null} */
            level: "junior" | "mid" | "senior" | "lead" | "principal" | "director" | "vp" | "c_suite" | null;
            model_id: string | null;
            model_provider: string | null;
            name: string;
            personality_preset: string | null;
            role: string;
            /** @enum {string} */
            tier: "small" | "medium" | "large";
        };
        SetupCompanyRequest: {
            company_name: string;
            description?: string;
            /** @description A template from GET /setup/templates; omit for a blank company */
            template_name?: string;
            /** @description Values for the template's variables (e.g. budget, num_backend_devs) */
            variables?: {
                [key: string]: unknown;
            };
        };
        SetupCompanyResponse: {
            agent_count: number;
            agents: components["schemas"]["SetupAgentSummary"][];
            company_name: string;
            department_count: number;
            description: string;
            template_applied: string | null;
        };
        SetupCompleteResponse: {
            /** @description Reinitialisation steps that ran, in order */
            reinitialised: string[];
            setup_complete: boolean;
        };
        SetupNameLocalesRequest: {
            /** @description Locale codes, or ["__all__"] */
            locales: string[];
        };
        SetupNameLocalesResponse: {
            /** @description Locale codes, or ["__all__"] */
            locales: string[];
        };
        SetupStatusResponse: {
            has_agents: boolean;
            has_company: boolean;
            has_name_locales: boolean;
            has_providers: boolean;
            min_password_length: number;
            /** @description No CEO account exists yet (POST /auth/setup first) */
            needs_admin: boolean;
            /** @description Setup has not been completed */
            needs_setup: boolean;
        };
        /** @description A log sink as this replica runs it */
        SinkInfo: {
            enabled: boolean;
            /** @description __console__, a default file name, a custom file path, host:port or URL */
            identifier: string;
            is_default: boolean;
            json_format: boolean;
            /** @enum {string} */
            level: "DEBUG" | "INFO" | "WARNING" | "ERROR" | "CRITICAL";
            rotation: components["schemas"]["SinkRotation"] | null;
            routing_prefixes: string[];
            /** @enum {string} */
            sink_type: "console" | "file" | "syslog" | "http";
        };
        SinkRotation: {
            backup_count: number;
            compress_rotated: boolean;
            max_bytes: number;
            /** @enum {string} */
            strategy: "builtin" | "external";
        };
        SpendingForecast: {
            /** @description Average spend per day of the period so far */
            avg_daily_spend_usd: number;
            /** @description Days until the monthly budget runs out */
            days_until_exhausted: number | null;
            /** @description Spend at the end of the period at that rate */
            projected_period_total_usd: number;
        };
        SpendingPeriod: {
            /** Format: date-time */
            end: string;
            /** Format: date-time */
            start: string;
            totals: components["schemas"]["SpendingTotals"];
        };
        SpendingSummary: {
            /** @enum {string} */
            alert_level: "normal" | "warning" | "critical" | "hard_stop";
            budget_total_monthly: number;
            /** @description Can exceed 100 */
            budget_used_percent: number;
            by_agent: components["schemas"]["AgentSpendingSummary"][];
            by_department: components["schemas"]["DepartmentSpendingSummary"][];
            currency: string;
            forecast: components["schemas"]["SpendingForecast"];
            period: components["schemas"]["SpendingPeriod"];
        };
        SpendingTotals: {
            record_count: number;
            total_cost_usd: number;
            total_input_tokens: number;
            total_output_tokens: number;
        };
        String: Record<string, never>;
        SubsystemStatus: {
            /** @description Why it is unwired, or what is wired */
            detail?: string | null;
            /** @example persistence */
            name: string;
            wired: boolean;
        };
        Task: {
            acceptance_criteria: components["schemas"]["AcceptanceCriterion"][];
            artifacts_expected: Record<string, never>[];
            assigned_to: string | null;
            budget_limit: number;
            /** Format: date-time */
            completed_at: string | null;
            coordination_topology: string;
            /** Format: date-time */
            created_at: string;
            created_by: string;
            /** Format: date-time */
            deadline: string | null;
            delegation_chain: string[];
            dependencies: string[];
            description: string;
            /** @enum {string} */
            estimated_complexity: "simple" | "medium" | "complex" | "epic";
            /** @example task-0123456789abcdef0123456789abcdef */
            id: string;
            max_retries: number;
            /** @description The output scan withheld the final answer (`result` says so) */
            output_withheld: boolean;
            parent_task_id: string | null;
            /** @enum {string} */
            priority: "critical" | "high" | "medium" | "low";
            /** @description Project id */
            project: string;
            /** @description The agent's final answer of the completing run, after the security output scan */
            result: string | null;
            retry_count: number;
            reviewers: string[];
            /** Format: date-time */
            started_at: string | null;
            /** @enum {string} */
            status: "created" | "assigned" | "in_progress" | "in_review" | "completed" | "blocked" | "failed" | "interrupted" | "cancelled";
            /** @description Cancel reason, or why the last run stopped */
            status_reason: string | null;
            task_structure: string | null;
            title: string;
            /** @enum {string} */
            type: "development" | "design" | "research" | "review" | "meeting" | "admin" | "analysis";
            /** Format: date-time */
            updated_at: string;
            /** @description Optimistic-concurrency version: 1 on create, +1 per write */
            version: number;
        };
        TemplateAgent: {
            department: string;
            /** @enum {string} */
            level: "junior" | "mid" | "senior" | "lead" | "principal" | "director" | "vp" | "c_suite";
            /** @enum {string} */
            model_tier: "small" | "medium" | "large";
            /** @description Fixed by the template; null: named when hired */
            name: string | null;
            personality_preset: string;
            role: string;
        };
        TemplateDepartment: {
            /** @description Share of the monthly budget, 0 to 100 */
            budget_percent: number;
            /** @description Role expected to lead the department */
            head_role: string | null;
            name: string;
        };
        TemplateDetailResponse: {
            agent_count: number;
            agents: components["schemas"]["TemplateAgent"][];
            /** @enum {string} */
            autonomy_level: "full" | "semi" | "supervised" | "locked";
            /** @description Monthly budget with the default variables */
            budget_monthly: number;
            department_count: number;
            departments: components["schemas"]["TemplateDepartment"][];
            description: string;
            display_name: string;
            name: string;
            skill_patterns: string[];
            /** @enum {string} */
            source: "builtin" | "user";
            tags: string[];
            variables: components["schemas"]["TemplateVariableResponse"][];
            /** @enum {string} */
            workflow: "kanban" | "agile_kanban";
        };
        TemplateInfoResponse: {
            agent_count: number;
            /** @enum {string} */
            autonomy_level: "full" | "semi" | "supervised" | "locked";
            department_count: number;
            description: string;
            display_name: string;
            name: string;
            skill_patterns: string[];
            /** @enum {string} */
            source: "builtin" | "user";
            tags: string[];
            variables: components["schemas"]["TemplateVariableResponse"][];
            /** @enum {string} */
            workflow: "kanban" | "agile_kanban";
        };
        TemplateVariableResponse: {
            default: (string | number | boolean) | null;
            description: string;
            name: string;
            required: boolean;
            /** @enum {string} */
            var_type: "str" | "int" | "float" | "bool";
        };
        TestConnectionRequest: {
            /** @description Model id or alias; defaults to the first model */
            model?: string;
        };
        TestConnectionResponse: {
            /** @description Set exactly when success is false */
            error: string | null;
            /** @description The 7xxx code of the failure */
            error_code: number | null;
            latency_ms: number | null;
            model_tested: string | null;
            success: boolean;
        };
        /** @description Candidate sink settings as JSON text; absent: the running value */
        TestSinkConfigRequest: {
            custom_sinks?: string;
            sink_overrides?: string;
        };
        TestSinkConfigResult: {
            /** @description The broken rule, naming the field */
            error: string | null;
            valid: boolean;
        };
        TokenResponse: {
            /** @description Seconds until the token expires */
            expires_in: number;
            must_change_password: boolean;
            /** @description HS256 JWT; send as `Authorization: Bearer <token>` (also set as the HttpOnly `session` cookie) */
            token: string;
        };
        ToolServer: {
            allowed_agents: string[];
            allowed_departments: string[];
            args: string[];
            auth_header_name: string | null;
            command: string | null;
            /** Format: date-time */
            created_at: string;
            /** @description Names only; values are never returned */
            env_names: string[];
            has_auth_header_value: boolean;
            health: components["schemas"]["ToolServerHealth"];
            name: string;
            tool_actions: {
                [key: string]: string;
            };
            tool_count: number;
            /** Format: date-time */
            tools_listed_at: string | null;
            /** @enum {string} */
            transport: "stdio" | "http";
            /** Format: date-time */
            updated_at: string;
            url: string | null;
            version: number;
        };
        ToolServerHealth: {
            /** @description Whether this replica holds a connection now (a stdio server stopped while idle is not) */
            connected: boolean;
            last_error: string | null;
            /** @description The replica whose connection this describes (host, process id and a random part) */
            replica: string;
            restarts: number;
        };
        ToolServerTestResult: {
            error: string | null;
            error_code: number | null;
            latency_ms: number | null;
            success: boolean;
            tool_count: number | null;
        };
        ToolServerTool: {
            /** @enum {string} */
            action_source: "explicit" | "read_only_hint" | "destructive_hint" | "non_destructive_hint" | "unknown";
            action_type: string;
            annotations: {
                [key: string]: boolean;
            };
            description: string;
            input_schema: {
                [key: string]: unknown;
            };
            /** @description As offered to models (server__tool) */
            name: string | null;
            tool: string;
        };
        TransitionTaskRequest: {
            /** @description Assignee set by the move; null clears it (where the target status allows none) */
            assigned_to?: string | null;
            /** @description Compare-and-set: 409 (4003) when the task has moved on; absent or null: no comparison */
            expected_version?: number | null;
            /** @enum {string} */
            target_status: "created" | "assigned" | "in_progress" | "in_review" | "completed" | "blocked" | "failed" | "interrupted" | "cancelled";
        };
        TrendDataPoint: {
            /**
             * Format: date-time
             * @description Start of the bucket (UTC)
             */
            timestamp: string;
            value: number;
        };
        TrendResult: {
            data_point_count: number;
            /** @enum {string} */
            direction: "improving" | "stable" | "declining" | "insufficient_data";
            metric_name: string;
            slope: number;
            window_size: string;
        };
        TrendsResponse: {
            /** @enum {string} */
            bucket_size: "hour" | "day";
            data_points: components["schemas"]["TrendDataPoint"][];
            /** @enum {string} */
            metric: "spend" | "tasks_completed" | "active_agents" | "success_rate";
            /** @enum {string} */
            period: "7d" | "30d" | "90d";
        };
        TriggerMeetingRequest: {
            /**
             * @description String or string-list values: at most 20 keys of at most 256 characters, strings of at most 1024, lists of at most 50 items (else 400, 2090). A key named by a type's participants names agents; `agenda` gives the agenda items.
             * @default {}
             */
            context: {
                [key: string]: string | string[];
            };
            /** @description Matched against each type’s `trigger`. */
            event_name: string;
        };
        TrustChange: {
            /** @description system, or the person who decided the approval */
            actor: string;
            /** @enum {string} */
            from_level: "sandboxed" | "restricted" | "standard" | "elevated" | "custom";
            /** @enum {string} */
            outcome: "applied" | "pending" | "rejected" | "verified";
            reason: string;
            /** Format: date-time */
            timestamp: string;
            /** @enum {string} */
            to_level: "sandboxed" | "restricted" | "standard" | "elevated" | "custom";
        };
        UpdateAgentAutonomyRequest: {
            /**
             * @description null: inherit the department or company level
             * @enum {string|null}
             */
            level: "full" | "semi" | "supervised" | "locked" | null;
            /** @description Why, for the audit record */
            reason?: string;
        };
        UpdateAgentModelRequest: {
            model_id: string;
            model_provider: string;
        };
        UpdateAgentNameRequest: {
            /** @description Addressable as /agents/{agent_name} */
            name: string;
        };
        UpdateAgentPersonalityRequest: {
            personality_preset: string;
        };
        UpdateAgentRequest: {
            authority?: components["schemas"]["AgentAuthorityUpdate"];
            /** @description Counts against the department's share of the budget; null: none */
            budget_limit_monthly?: number | null;
            /** @description Move to another of the company's departments */
            department?: string;
            memory?: components["schemas"]["AgentMemoryUpdate"];
            model?: components["schemas"]["AgentModelUpdate"];
            /** @description Rename (a name another agent has: 409) */
            name?: string;
            /** @description Fields over the current ones; then no preset */
            personality?: components["schemas"]["UpdatePersonalityPresetRequest"];
            /** @description A preset's personality (`personality` fields go over it) */
            personality_preset?: string;
            /** @description Why: kept with the career event */
            reason?: string;
            /** @enum {string} */
            status?: "active" | "on_leave";
            tools?: components["schemas"]["AgentToolsUpdate"];
        };
        UpdateDepartmentAutonomyRequest: {
            /**
             * @description null: inherit the company level
             * @enum {string|null}
             */
            level: "full" | "semi" | "supervised" | "locked" | null;
            /** @description Why, for the audit record */
            reason?: string;
        };
        UpdateModelConfigRequest: {
            local_params: components["schemas"]["LocalModelParams"];
        };
        UpdatePersonalityPresetRequest: {
            /**
             * @description Inclination to cooperate and accommodate (0 = challenging, 1 = accommodating).
             * @default 0.5
             */
            agreeableness: number;
            /**
             * @description The working arrangement the agent prefers.
             * @default team
             * @enum {string}
             */
            collaboration: "independent" | "pair" | "team";
            /**
             * @description Free-form label for the tone the agent writes in.
             * @default neutral
             */
            communication_style: string;
            /**
             * @description How the agent handles disagreement.
             * @default collaborate
             * @enum {string}
             */
            conflict_approach: "avoid" | "accommodate" | "compete" | "compromise" | "collaborate";
            /**
             * @description Care, order and thoroughness (0 = loose, 1 = meticulous).
             * @default 0.5
             */
            conscientiousness: number;
            /**
             * @description How far the agent strays from conventional solutions.
             * @default medium
             * @enum {string}
             */
            creativity: "low" | "medium" | "high";
            /**
             * @description How the agent usually reaches decisions.
             * @default consultative
             * @enum {string}
             */
            decision_making: "analytical" | "intuitive" | "consultative" | "directive";
            /**
             * @description Prose summary of the personality, shown to people and to the model.
             * @default
             */
            description: string;
            /**
             * @description Drive to engage and communicate with others (0 = reserved, 1 = outgoing).
             * @default 0.5
             */
            extraversion: number;
            /**
             * @description Openness to new ideas and experience (0 = conventional, 1 = exploratory).
             * @default 0.5
             */
            openness: number;
            /**
             * @description How readily the agent accepts uncertain or risky options.
             * @default medium
             * @enum {string}
             */
            risk_tolerance: "low" | "medium" | "high";
            /**
             * @description Composure under pressure (0 = easily rattled, 1 = unflappable).
             * @default 0.5
             */
            stress_response: number;
            /**
             * @description Short adjectives that characterise the agent.
             * @default []
             */
            traits: string[];
            /**
             * @description How much detail the agent puts in its output.
             * @default balanced
             * @enum {string}
             */
            verbosity: "terse" | "balanced" | "verbose";
        };
        UpdateProviderRequest: {
            /** @description Write-only; null or "********" keeps it; a new base_url or oauth_token_url needs it again (2028) */
            api_key?: string;
            /**
             * @default api_key
             * @enum {string}
             */
            auth_type: "api_key" | "oauth" | "custom_header" | "subscription" | "none";
            /** Format: uri */
            base_url?: string;
            /** @description Remove the stored api key */
            clear_api_key?: boolean;
            /** @description Remove the stored custom header value */
            clear_custom_header_value?: boolean;
            /** @description Remove the stored OAuth client secret */
            clear_oauth_client_secret?: boolean;
            /** @description Remove the stored subscription token */
            clear_subscription_token?: boolean;
            custom_header_name?: string;
            /** @description Write-only; null or "********" keeps it; a new base_url or oauth_token_url needs it again (2028) */
            custom_header_value?: string;
            degradation?: components["schemas"]["Degradation"];
            /** @description Optional grouping for cross-validation */
            family?: string;
            /** @description Routing identifier; falls back to the provider name */
            gateway_provider?: string;
            models?: components["schemas"]["ModelEntry"][];
            oauth_client_id?: string;
            /** @description Write-only; null or "********" keeps it; a new base_url or oauth_token_url needs it again (2028) */
            oauth_client_secret?: string;
            oauth_scope?: string;
            /** Format: uri */
            oauth_token_url?: string;
            quota?: components["schemas"]["Quota"];
            /** @description Used as the api key; needs tos_accepted. Write-only; null or "********" keeps it; a new base_url or oauth_token_url needs it again (2028) */
            subscription_token?: string;
            /** @description Accept the subscription terms; stamps tos_accepted_at */
            tos_accepted?: boolean;
            /** @description CEO: allowlist a refused base_url or oauth_token_url host:port in this request (audited); else 2014 */
            trust_address?: boolean;
        };
        UpdateSettingRequest: {
            /** @description The new value as text */
            value: string;
        };
        UpdateTaskRequest: {
            /** @description Reassign (agent name or id), or null to unassign; either must keep the assignment invariant (a created task has no assignee; assigned to completed need one) */
            assigned_to?: string | null;
            budget_limit?: number;
            description?: string;
            /** @description Compare-and-set: 409 (4003) when the task has moved on; absent or null: no comparison */
            expected_version?: number | null;
            /** @enum {string} */
            priority?: "critical" | "high" | "medium" | "low";
            title?: string;
        };
        UpdateToolServerRequest: {
            /** @description Agents (id or name) who may use it */
            allowed_agents?: string[];
            /** @description Departments whose agents may use it */
            allowed_departments?: string[];
            args?: string[];
            auth_header_name?: string;
            /** @description Write-only; a new command, args or url needs it again (2901) */
            auth_header_value?: string;
            /** @description Removes the auth header value */
            clear_auth_header_value?: boolean;
            /** @description Removes every environment variable */
            clear_env?: boolean;
            /** @description stdio: the program to start */
            command?: string;
            /** @description stdio: environment variables, all secret. Write-only; a new command, args or url needs it again (2901) */
            env?: {
                [key: string]: string;
            };
            /** @description Tool name to action type, over the one derived from its annotations */
            tool_actions?: {
                [key: string]: string;
            };
            /** @description Adds the url's private host:port to the allowlist (CEO) */
            trust_address?: boolean;
            /** @description http: the Streamable HTTP endpoint */
            url?: string;
        };
        UpdateUserRoleRequest: {
            /** @description Omit to keep; null to clear */
            department?: string | null;
            /** @enum {string} */
            role: "ceo" | "manager" | "board_member" | "pair_programmer" | "observer";
        };
        UserInfoResponse: {
            department: string | null;
            id: string;
            must_change_password: boolean;
            /** @enum {string} */
            role: "ceo" | "manager" | "board_member" | "pair_programmer" | "observer" | "system";
            /** @description The current session (JWT jti); null for the CLI token */
            session_id: string | null;
            username: string;
        };
        UserResponse: {
            /** Format: date-time */
            created_at: string;
            department: string | null;
            id: string;
            must_change_password: boolean;
            /** @enum {string} */
            role: "ceo" | "manager" | "board_member" | "pair_programmer" | "observer" | "system";
            /** Format: date-time */
            updated_at: string;
            username: string;
        };
        WindowMetrics: {
            avg_completion_time_seconds?: number | null;
            avg_cost_per_task?: number | null;
            avg_quality_score?: number | null;
            avg_tokens_per_task?: number | null;
            collaboration_score?: number | null;
            data_point_count: number;
            success_rate?: number | null;
            tasks_completed: number;
            tasks_failed: number;
            /** @enum {string} */
            window_size: "7d" | "30d" | "90d";
        };
        WsTicketResponse: {
            /** @description Seconds the ticket stays valid */
            expires_in: number;
            /** @description One-time ticket for `GET /api/v1/ws?ticket=…` */
            ticket: string;
        };
    };
    responses: {
        /** @description Validation error (2xxx) */
        BadRequest: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["ErrorResponse"];
                "application/problem+json": components["schemas"]["ProblemDetail"];
            };
        };
        /** @description Conflict (4xxx) */
        Conflict: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["ErrorResponse"];
                "application/problem+json": components["schemas"]["ProblemDetail"];
            };
        };
        /** @description Insufficient role (1001) */
        Forbidden: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["ErrorResponse"];
                "application/problem+json": components["schemas"]["ProblemDetail"];
            };
        };
        /** @description Artifact storage full (8007) */
        InsufficientStorage: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["ErrorResponse"];
                "application/problem+json": components["schemas"]["ProblemDetail"];
            };
        };
        /** @description Internal error (8000) */
        InternalServerError: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["ErrorResponse"];
                "application/problem+json": components["schemas"]["ProblemDetail"];
            };
        };
        /** @description Not found (3xxx) */
        NotFound: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["ErrorResponse"];
                "application/problem+json": components["schemas"]["ProblemDetail"];
            };
        };
        /** @description Request body over the size limit */
        PayloadTooLarge: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["ErrorResponse"];
                "application/problem+json": components["schemas"]["ProblemDetail"];
            };
        };
        /** @description Range cannot be served (2069) */
        RangeNotSatisfiable: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["ErrorResponse"];
                "application/problem+json": components["schemas"]["ProblemDetail"];
            };
        };
        /** @description Service not wired (8001), retryable */
        ServiceUnavailable: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["ErrorResponse"];
                "application/problem+json": components["schemas"]["ProblemDetail"];
            };
        };
        /** @description Rate limited (5000), with Retry-After */
        TooManyRequests: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["ErrorResponse"];
                "application/problem+json": components["schemas"]["ProblemDetail"];
            };
        };
        /** @description Authentication required (1000) */
        Unauthorized: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["ErrorResponse"];
                "application/problem+json": components["schemas"]["ProblemDetail"];
            };
        };
        /** @description Idempotency-Key reused with another request (2026) */
        UnprocessableEntity: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["ErrorResponse"];
                "application/problem+json": components["schemas"]["ProblemDetail"];
            };
        };
    };
    parameters: {
        /** @description Makes a retry safe: bound to the caller, the route and the resource ids in the path, and kept 24 hours. A retry with the same payload replays the stored status and body with `Idempotent-Replayed: true`; another payload gets 422 (2026); a retry while the first request runs gets 409 (4022, retryable); a malformed key gets 400 (2025). Server errors and request validation failures release the key. */
        IdempotencyKey: string;
        PageLimit: number;
        PageOffset: number;
    };
    requestBodies: never;
    headers: never;
    pathItems: never;
}
export type $defs = Record<string, never>;
export interface operations {
    ApiV1ActivitiesList: {
        parameters: {
            query?: {
                agent_id?: string;
                last_n_hours?: 24 | 48 | 168;
                limit?: components["parameters"]["PageLimit"];
                offset?: components["parameters"]["PageOffset"];
                type?: "hired" | "onboarded" | "fired" | "offboarded" | "status_changed" | "promoted" | "demoted" | "task_started" | "task_completed" | "cost_incurred" | "tool_used" | "delegation_sent" | "delegation_received" | null;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description One page of results */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PaginatedResponse"] & {
                        data?: components["schemas"]["ActivityEvent"][];
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
        };
    };
    ApiV1AdminBackupsList: {
        parameters: {
            query?: {
                limit?: components["parameters"]["PageLimit"];
                offset?: components["parameters"]["PageOffset"];
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description One page of results */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PaginatedResponse"] & {
                        data?: components["schemas"]["BackupInfo"][];
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
        };
    };
    ApiV1AdminBackupsCreate: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes a retry safe: bound to the caller, the route and the resource ids in the path, and kept 24 hours. A retry with the same payload replays the stored status and body with `Idempotent-Replayed: true`; another payload gets 422 (2026); a retry while the first request runs gets 409 (4022, retryable); a malformed key gets 400 (2025). Server errors and request validation failures release the key. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiResponse"] & {
                        data?: components["schemas"]["BackupManifest"];
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            409: components["responses"]["Conflict"];
        };
    };
    ApiV1AdminBackupsBackupIdGet: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                backup_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiResponse"] & {
                        data?: components["schemas"]["BackupManifest"];
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
        };
    };
    ApiV1AdminBackupsBackupIdDelete: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes a retry safe: bound to the caller, the route and the resource ids in the path, and kept 24 hours. A retry with the same payload replays the stored status and body with `Idempotent-Replayed: true`; another payload gets 422 (2026); a retry while the first request runs gets 409 (4022, retryable); a malformed key gets 400 (2025). Server errors and request validation failures release the key. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path: {
                backup_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description No content */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
        };
    };
    ApiV1AdminBackupsRestoreRestore: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes a retry safe: bound to the caller, the route and the resource ids in the path, and kept 24 hours. A retry with the same payload replays the stored status and body with `Idempotent-Replayed: true`; another payload gets 422 (2026); a retry while the first request runs gets 409 (4022, retryable); a malformed key gets 400 (2025). Server errors and request validation failures release the key. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["RestoreRequest"];
            };
        };
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiResponse"] & {
                        data?: components["schemas"]["RestoreResponse"];
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
        };
    };
    ApiV1AgentsList: {
        parameters: {
            query?: {
                limit?: components["parameters"]["PageLimit"];
                offset?: components["parameters"]["PageOffset"];
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description One page of results */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PaginatedResponse"] & {
                        data?: components["schemas"]["AgentConfig"][];
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
        };
    };
    ApiV1AgentsAgentNameGet: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                agent_name: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiResponse"] & {
                        data?: components["schemas"]["AgentConfig"];
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
        };
    };
    ApiV1AgentsAgentNameUpdate: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes a retry safe: bound to the caller, the route and the resource ids in the path, and kept 24 hours. A retry with the same payload replays the stored status and body with `Idempotent-Replayed: true`; another payload gets 422 (2026); a retry while the first request runs gets 409 (4022, retryable); a malformed key gets 400 (2025). Server errors and request validation failures release the key. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
                /** @description ETag from a previous read; a stale value answers 409 (code 4002) */
                "If-Match"?: string;
            };
            path: {
                agent_name: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["UpdateAgentRequest"];
            };
        };
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiResponse"] & {
                        data?: components["schemas"]["AgentConfig"];
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
        };
    };
    ApiV1AgentsAgentNameActivityActivity: {
        parameters: {
            query?: {
                limit?: components["parameters"]["PageLimit"];
                offset?: components["parameters"]["PageOffset"];
            };
            header?: never;
            path: {
                agent_name: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description One page of results */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PaginatedResponse"] & {
                        data?: components["schemas"]["ActivityEvent"][];
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
        };
    };
    ApiV1AgentsAgentNameAutonomyGet: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                agent_name: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiResponse"] & {
                        data?: components["schemas"]["AgentAutonomy"];
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
        };
    };
    ApiV1AgentsAgentNameAutonomySet: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes a retry safe: bound to the caller, the route and the resource ids in the path, and kept 24 hours. A retry with the same payload replays the stored status and body with `Idempotent-Replayed: true`; another payload gets 422 (2026); a retry while the first request runs gets 409 (4022, retryable); a malformed key gets 400 (2025). Server errors and request validation failures release the key. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path: {
                agent_name: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["UpdateAgentAutonomyRequest"];
            };
        };
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiResponse"] & {
                        data?: components["schemas"]["AgentAutonomy"];
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
        };
    };
    ApiV1AgentsAgentNameEvaluateLevelEvaluate: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes a retry safe: bound to the caller, the route and the resource ids in the path, and kept 24 hours. A retry with the same payload replays the stored status and body with `Idempotent-Replayed: true`; another payload gets 422 (2026); a retry while the first request runs gets 409 (4022, retryable); a malformed key gets 400 (2025). Server errors and request validation failures release the key. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path: {
                agent_name: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiResponse"] & {
                        data?: components["schemas"]["LevelEvaluation"];
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
        };
    };
    ApiV1AgentsAgentNameFireFire: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes a retry safe: bound to the caller, the route and the resource ids in the path, and kept 24 hours. A retry with the same payload replays the stored status and body with `Idempotent-Replayed: true`; another payload gets 422 (2026); a retry while the first request runs gets 409 (4022, retryable); a malformed key gets 400 (2025). Server errors and request validation failures release the key. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path: {
                agent_name: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["FireAgentRequest"];
            };
        };
        responses: {
            /** @description Success */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiResponse"] & {
                        data?: components["schemas"]["OffboardingRecord"];
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
        };
    };
    ApiV1AgentsAgentNameFireRequestFireRequest: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes a retry safe: bound to the caller, the route and the resource ids in the path, and kept 24 hours. A retry with the same payload replays the stored status and body with `Idempotent-Replayed: true`; another payload gets 422 (2026); a retry while the first request runs gets 409 (4022, retryable); a malformed key gets 400 (2025). Server errors and request validation failures release the key. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path: {
                agent_name: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["FireAgentRequest"];
            };
        };
        responses: {
            /** @description Success */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiResponse"] & {
                        data?: components["schemas"]["ApprovalResponse"];
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
        };
    };
    ApiV1AgentsAgentNameHistoryHistory: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                agent_name: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiResponse"] & {
                        data?: components["schemas"]["CareerEvent"][];
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
        };
    };
    ApiV1AgentsAgentNameMemoriesList: {
        parameters: {
            query?: {
                category?: "working" | "episodic" | "semantic" | "procedural" | "social";
                limit?: components["parameters"]["PageLimit"];
                offset?: components["parameters"]["PageOffset"];
                project?: string;
            };
            header?: never;
            path: {
                agent_name: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description One page of results */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PaginatedResponse"] & {
                        data?: components["schemas"]["MemoryEntry"][];
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
        };
    };
    ApiV1AgentsAgentNameMemoriesMemoryIdDelete: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes a retry safe: bound to the caller, the route and the resource ids in the path, and kept 24 hours. A retry with the same payload replays the stored status and body with `Idempotent-Replayed: true`; another payload gets 422 (2026); a retry while the first request runs gets 409 (4022, retryable); a malformed key gets 400 (2025). Server errors and request validation failures release the key. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path: {
                agent_name: string;
                memory_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description No content */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
        };
    };
    ApiV1AgentsAgentNameMemoriesSearchSearch: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes a retry safe: bound to the caller, the route and the resource ids in the path, and kept 24 hours. A retry with the same payload replays the stored status and body with `Idempotent-Replayed: true`; another payload gets 422 (2026); a retry while the first request runs gets 409 (4022, retryable); a malformed key gets 400 (2025). Server errors and request validation failures release the key. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path: {
                agent_name: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["MemorySearchRequest"];
            };
        };
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiResponse"] & {
                        data?: components["schemas"]["MemoryEntry"][];
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    ApiV1AgentsAgentNameOffboardingGet: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                agent_name: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiResponse"] & {
                        data?: components["schemas"]["OffboardingRecord"];
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
        };
    };
    ApiV1AgentsAgentNameOnboardingGet: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                agent_name: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiResponse"] & {
                        data?: components["schemas"]["Onboarding"];
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
        };
    };
    ApiV1AgentsAgentNameOnboardingRetryRetry: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes a retry safe: bound to the caller, the route and the resource ids in the path, and kept 24 hours. A retry with the same payload replays the stored status and body with `Idempotent-Replayed: true`; another payload gets 422 (2026); a retry while the first request runs gets 409 (4022, retryable); a malformed key gets 400 (2025). Server errors and request validation failures release the key. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path: {
                agent_name: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiResponse"] & {
                        data?: components["schemas"]["Onboarding"];
                    };
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
        };
    };
    ApiV1AgentsAgentNamePerformancePerformance: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                agent_name: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiResponse"] & {
                        data?: components["schemas"]["AgentPerformanceSummary"];
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
        };
    };
    ApiV1AgentsAgentNameReleaseNameReleaseName: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes a retry safe: bound to the caller, the route and the resource ids in the path, and kept 24 hours. A retry with the same payload replays the stored status and body with `Idempotent-Replayed: true`; another payload gets 422 (2026); a retry while the first request runs gets 409 (4022, retryable); a malformed key gets 400 (2025). Server errors and request validation failures release the key. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path: {
                agent_name: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiResponse"] & {
                        data?: components["schemas"]["AgentConfig"];
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
        };
    };
    ApiV1AgentsAgentNameTrustGet: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                agent_name: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiResponse"] & {
                        data?: components["schemas"]["AgentTrust"];
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
        };
    };
    ApiV1AnalyticsForecastForecast: {
        parameters: {
            query?: {
                horizon_days?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiResponse"] & {
                        data?: components["schemas"]["ForecastResponse"];
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
        };
    };
    ApiV1AnalyticsOverviewOverview: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiResponse"] & {
                        data?: components["schemas"]["OverviewMetrics"];
                    };
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
        };
    };
    ApiV1AnalyticsTrendsTrends: {
        parameters: {
            query?: {
                metric?: "spend" | "tasks_completed" | "active_agents" | "success_rate";
                period?: "7d" | "30d" | "90d";
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiResponse"] & {
                        data?: components["schemas"]["TrendsResponse"];
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
        };
    };
    ApiV1ApprovalsList: {
        parameters: {
            query?: {
                action_type?: string;
                limit?: components["parameters"]["PageLimit"];
                offset?: components["parameters"]["PageOffset"];
                risk_level?: "low" | "medium" | "high" | "critical";
                status?: "pending" | "approved" | "rejected" | "expired";
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description One page of results */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PaginatedResponse"] & {
                        data?: components["schemas"]["ApprovalResponse"][];
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
        };
    };
    ApiV1ApprovalsCreate: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes a retry safe: bound to the caller, the route and the resource ids in the path, and kept 24 hours. A retry with the same payload replays the stored status and body with `Idempotent-Replayed: true`; another payload gets 422 (2026); a retry while the first request runs gets 409 (4022, retryable); a malformed key gets 400 (2025). Server errors and request validation failures release the key. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CreateApprovalRequest"];
            };
        };
        responses: {
            /** @description Success */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiResponse"] & {
                        data?: components["schemas"]["ApprovalResponse"];
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
        };
    };
    ApiV1ApprovalsApprovalIdGet: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                approval_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiResponse"] & {
                        data?: components["schemas"]["ApprovalResponse"];
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
        };
    };
    ApiV1ApprovalsApprovalIdApproveApprove: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes a retry safe: bound to the caller, the route and the resource ids in the path, and kept 24 hours. A retry with the same payload replays the stored status and body with `Idempotent-Replayed: true`; another payload gets 422 (2026); a retry while the first request runs gets 409 (4022, retryable); a malformed key gets 400 (2025). Server errors and request validation failures release the key. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path: {
                approval_id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["ApproveRequest"];
            };
        };
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiResponse"] & {
                        data?: components["schemas"]["ApprovalResponse"];
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
        };
    };
    ApiV1ApprovalsApprovalIdRejectReject: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes a retry safe: bound to the caller, the route and the resource ids in the path, and kept 24 hours. A retry with the same payload replays the stored status and body with `Idempotent-Replayed: true`; another payload gets 422 (2026); a retry while the first request runs gets 409 (4022, retryable); a malformed key gets 400 (2025). Server errors and request validation failures release the key. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path: {
                approval_id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["RejectRequest"];
            };
        };
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiResponse"] & {
                        data?: components["schemas"]["ApprovalResponse"];
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
        };
    };
    ApiV1ArtifactsList: {
        parameters: {
            query?: {
                /** @description The agent that made it. */
                created_by?: string;
                limit?: components["parameters"]["PageLimit"];
                offset?: components["parameters"]["PageOffset"];
                task_id?: string;
                /** @description One of code, tests, documentation (else 400, 2067). */
                type?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description One page of results */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PaginatedResponse"] & {
                        data?: components["schemas"]["Artifact"][];
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
        };
    };
    ApiV1ArtifactsCreate: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes a retry safe: bound to the caller, the route and the resource ids in the path, and kept 24 hours. A retry with the same payload replays the stored status and body with `Idempotent-Replayed: true`; another payload gets 422 (2026); a retry while the first request runs gets 409 (4022, retryable); a malformed key gets 400 (2025). Server errors and request validation failures release the key. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CreateArtifactRequest"];
            };
        };
        responses: {
            /** @description Success */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiResponse"] & {
                        data?: components["schemas"]["Artifact"];
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
        };
    };
    ApiV1ArtifactsArtifactIdGet: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                artifact_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiResponse"] & {
                        data?: components["schemas"]["Artifact"];
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
        };
    };
    ApiV1ArtifactsArtifactIdDelete: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes a retry safe: bound to the caller, the route and the resource ids in the path, and kept 24 hours. A retry with the same payload replays the stored status and body with `Idempotent-Replayed: true`; another payload gets 422 (2026); a retry while the first request runs gets 409 (4022, retryable); a malformed key gets 400 (2025). Server errors and request validation failures release the key. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path: {
                artifact_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description No content */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
        };
    };
    ApiV1ArtifactsArtifactIdContentDownload: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                artifact_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The content */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/octet-stream": string;
                };
            };
            /** @description One byte range */
            206: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/octet-stream": string;
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            416: components["responses"]["RangeNotSatisfiable"];
        };
    };
    ApiV1ArtifactsArtifactIdContentUpload: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes a retry safe: bound to the caller, the route and the resource ids in the path, and kept 24 hours. A retry with the same payload replays the stored status and body with `Idempotent-Replayed: true`; another payload gets 422 (2026); a retry while the first request runs gets 409 (4022, retryable); a malformed key gets 400 (2025). Server errors and request validation failures release the key. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path: {
                artifact_id: string;
            };
            cookie?: never;
        };
        /** @description The bytes as the raw body, or a multipart/form-data form whose file part (a filename, or the name "file") holds them. */
        requestBody: {
            content: {
                "application/octet-stream": string;
                "multipart/form-data": string;
            };
        };
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiResponse"] & {
                        data?: components["schemas"]["Artifact"];
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            413: components["responses"]["PayloadTooLarge"];
            507: components["responses"]["InsufficientStorage"];
        };
    };
    ApiV1AuditList: {
        parameters: {
            query?: {
                action?: string;
                actor?: string;
                limit?: components["parameters"]["PageLimit"];
                offset?: components["parameters"]["PageOffset"];
                /** @description Rows at or after this time */
                since?: string;
                /** @description Rows at or before this time */
                until?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description One page of results */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PaginatedResponse"] & {
                        data?: components["schemas"]["AuditEntry"][];
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
        };
    };
    ApiV1AuditVerifyVerify: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiResponse"] & {
                        data?: components["schemas"]["AuditVerification"];
                    };
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
        };
    };
    ApiV1AuthChangePasswordChangePassword: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["ChangePasswordRequest"];
            };
        };
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiResponse"] & {
                        data?: components["schemas"]["TokenResponse"];
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            429: components["responses"]["TooManyRequests"];
        };
    };
    ApiV1AuthLoginLogin: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CredentialsRequest"];
            };
        };
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiResponse"] & {
                        data?: components["schemas"]["TokenResponse"];
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            429: components["responses"]["TooManyRequests"];
        };
    };
    ApiV1AuthLogoutLogout: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description No content */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    ApiV1AuthMeMe: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiResponse"] & {
                        data?: components["schemas"]["UserInfoResponse"];
                    };
                };
            };
            401: components["responses"]["Unauthorized"];
        };
    };
    ApiV1AuthSessionsListSessions: {
        parameters: {
            query?: {
                /** @description `all` is CEO only */
                scope?: "own" | "all";
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiResponse"] & {
                        data?: components["schemas"]["SessionResponse"][];
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
        };
    };
    ApiV1AuthSessionsSessionIdRevokeSession: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                session_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description No content */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            404: components["responses"]["NotFound"];
        };
    };
    ApiV1AuthSetupSetup: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CredentialsRequest"];
            };
        };
        responses: {
            /** @description Success */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiResponse"] & {
                        data?: components["schemas"]["TokenResponse"];
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            409: components["responses"]["Conflict"];
            429: components["responses"]["TooManyRequests"];
        };
    };
    ApiV1AuthWsTicketWsTicket: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiResponse"] & {
                        data?: components["schemas"]["WsTicketResponse"];
                    };
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            429: components["responses"]["TooManyRequests"];
        };
    };
    ApiV1BudgetSummary: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiResponse"] & {
                        data?: components["schemas"]["SpendingSummary"];
                    };
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
        };
    };
    ApiV1BudgetAgentsAgentIdAgent: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                agent_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiResponse"] & {
                        data?: components["schemas"]["AgentSpending"];
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
        };
    };
    ApiV1BudgetConfigConfig: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiResponse"] & {
                        data?: components["schemas"]["BudgetConfig"];
                    };
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
        };
    };
    ApiV1BudgetRecordsRecords: {
        parameters: {
            query?: {
                agent_id?: string;
                limit?: components["parameters"]["PageLimit"];
                offset?: components["parameters"]["PageOffset"];
                task_id?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description One page of results */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PaginatedResponse"] & {
                        data?: components["schemas"]["CostRecord"][];
                    } & components["schemas"]["BudgetRecordsSummaries"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
        };
    };
    ApiV1CompanyGet: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiResponse"] & {
                        data?: components["schemas"]["CompanyResponse"];
                    };
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
        };
    };
    ApiV1CompanyDepartmentsDepartments: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiResponse"] & {
                        data?: components["schemas"]["Department"][];
                    };
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
        };
    };
    ApiV1DepartmentsList: {
        parameters: {
            query?: {
                limit?: components["parameters"]["PageLimit"];
                offset?: components["parameters"]["PageOffset"];
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description One page of results */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PaginatedResponse"] & {
                        data?: components["schemas"]["Department"][];
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
        };
    };
    ApiV1DepartmentsNameGet: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                name: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiResponse"] & {
                        data?: components["schemas"]["Department"];
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
        };
    };
    ApiV1DepartmentsNameAutonomyGet: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                name: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiResponse"] & {
                        data?: components["schemas"]["DepartmentAutonomy"];
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
        };
    };
    ApiV1DepartmentsNameAutonomySet: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes a retry safe: bound to the caller, the route and the resource ids in the path, and kept 24 hours. A retry with the same payload replays the stored status and body with `Idempotent-Replayed: true`; another payload gets 422 (2026); a retry while the first request runs gets 409 (4022, retryable); a malformed key gets 400 (2025). Server errors and request validation failures release the key. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path: {
                name: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["UpdateDepartmentAutonomyRequest"];
            };
        };
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiResponse"] & {
                        data?: components["schemas"]["DepartmentAutonomy"];
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
        };
    };
    ApiV1DepartmentsNameCeremonyPolicyCeremonyPolicy: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                name: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiResponse"] & {
                        data?: components["schemas"]["CeremonyPolicy"] | null;
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
        };
    };
    ApiV1DepartmentsNameCeremonyPolicySetCeremonyPolicy: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes a retry safe: bound to the caller, the route and the resource ids in the path, and kept 24 hours. A retry with the same payload replays the stored status and body with `Idempotent-Replayed: true`; another payload gets 422 (2026); a retry while the first request runs gets 409 (4022, retryable); a malformed key gets 400 (2025). Server errors and request validation failures release the key. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
                /** @description ETag from a previous read; a stale value answers 409 (code 4002) */
                "If-Match"?: string;
            };
            path: {
                name: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CeremonyPolicy"];
            };
        };
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiResponse"] & {
                        data?: components["schemas"]["CeremonyPolicy"];
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
        };
    };
    ApiV1DepartmentsNameCeremonyPolicyClearCeremonyPolicy: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes a retry safe: bound to the caller, the route and the resource ids in the path, and kept 24 hours. A retry with the same payload replays the stored status and body with `Idempotent-Replayed: true`; another payload gets 422 (2026); a retry while the first request runs gets 409 (4022, retryable); a malformed key gets 400 (2025). Server errors and request validation failures release the key. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
                /** @description ETag from a previous read; a stale value answers 409 (code 4002) */
                "If-Match"?: string;
            };
            path: {
                name: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description No content */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
        };
    };
    ApiV1DepartmentsNameHealthHealth: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                name: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiResponse"] & {
                        data?: components["schemas"]["DepartmentHealth"];
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            404: components["responses"]["NotFound"];
        };
    };
    ApiV1HealthGetHealth: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiResponse"] & {
                        data?: components["schemas"]["HealthStatus"];
                    };
                };
            };
            500: components["responses"]["InternalServerError"];
        };
    };
    ApiV1HealthLiveGetLive: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiResponse"] & {
                        data?: components["schemas"]["ProbeStatusResponse"];
                    };
                };
            };
        };
    };
    ApiV1HealthReadyGetReady: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiResponse"] & {
                        data?: components["schemas"]["ProbeStatusResponse"];
                    };
                };
            };
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    ApiV1HiringRequestsList: {
        parameters: {
            query?: {
                limit?: components["parameters"]["PageLimit"];
                offset?: components["parameters"]["PageOffset"];
                status?: "pending" | "approved" | "rejected" | "instantiated";
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description One page of results */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PaginatedResponse"] & {
                        data?: components["schemas"]["HiringRequest"][];
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
        };
    };
    ApiV1HiringRequestsCreate: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes a retry safe: bound to the caller, the route and the resource ids in the path, and kept 24 hours. A retry with the same payload replays the stored status and body with `Idempotent-Replayed: true`; another payload gets 422 (2026); a retry while the first request runs gets 409 (4022, retryable); a malformed key gets 400 (2025). Server errors and request validation failures release the key. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CreateHiringRequest"];
            };
        };
        responses: {
            /** @description Success */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiResponse"] & {
                        data?: components["schemas"]["HiringRequest"];
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            409: components["responses"]["Conflict"];
        };
    };
    ApiV1HiringRequestsRequestIdGet: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                request_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiResponse"] & {
                        data?: components["schemas"]["HiringRequest"];
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
        };
    };
    ApiV1HiringRequestsRequestIdInstantiateMake: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes a retry safe: bound to the caller, the route and the resource ids in the path, and kept 24 hours. A retry with the same payload replays the stored status and body with `Idempotent-Replayed: true`; another payload gets 422 (2026); a retry while the first request runs gets 409 (4022, retryable); a malformed key gets 400 (2025). Server errors and request validation failures release the key. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path: {
                request_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiResponse"] & {
                        data?: components["schemas"]["HiringRequest"];
                    };
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
        };
    };
    ApiV1HiringRequestsRequestIdSelectSelect: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes a retry safe: bound to the caller, the route and the resource ids in the path, and kept 24 hours. A retry with the same payload replays the stored status and body with `Idempotent-Replayed: true`; another payload gets 422 (2026); a retry while the first request runs gets 409 (4022, retryable); a malformed key gets 400 (2025). Server errors and request validation failures release the key. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path: {
                request_id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["SelectCandidateRequest"];
            };
        };
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiResponse"] & {
                        data?: components["schemas"]["HiringRequest"];
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
        };
    };
    ApiV1McpHandle: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes a retry safe: bound to the caller, the route and the resource ids in the path, and kept 24 hours. A retry with the same payload replays the stored status and body with `Idempotent-Replayed: true`; another payload gets 422 (2026); a retry while the first request runs gets 409 (4022, retryable); a malformed key gets 400 (2025). Server errors and request validation failures release the key. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    [key: string]: unknown;
                };
            };
        };
        responses: {
            /** @description A JSON-RPC message (the MCP transport's, not the API envelope) */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            429: components["responses"]["TooManyRequests"];
        };
    };
    ApiV1MeetingsList: {
        parameters: {
            query?: {
                limit?: components["parameters"]["PageLimit"];
                /** @description Exact meeting type name. */
                meeting_type?: string;
                offset?: components["parameters"]["PageOffset"];
                status?: "scheduled" | "in_progress" | "completed" | "failed" | "cancelled" | "budget_exhausted" | null;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description One page of results */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PaginatedResponse"] & {
                        data?: components["schemas"]["MeetingResponse"][];
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
        };
    };
    ApiV1MeetingsMeetingIdGet: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                meeting_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiResponse"] & {
                        data?: components["schemas"]["MeetingResponse"];
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
        };
    };
    ApiV1MeetingsTriggerTrigger: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes a retry safe: bound to the caller, the route and the resource ids in the path, and kept 24 hours. A retry with the same payload replays the stored status and body with `Idempotent-Replayed: true`; another payload gets 422 (2026); a retry while the first request runs gets 409 (4022, retryable); a malformed key gets 400 (2025). Server errors and request validation failures release the key. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["TriggerMeetingRequest"];
            };
        };
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiResponse"] & {
                        data?: components["schemas"]["MeetingResponse"][];
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            409: components["responses"]["Conflict"];
        };
    };
    ApiV1MemoryOrgListFacts: {
        parameters: {
            query?: {
                category?: "core_policy" | "adr" | "procedure" | "convention";
                limit?: components["parameters"]["PageLimit"];
                offset?: components["parameters"]["PageOffset"];
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description One page of results */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PaginatedResponse"] & {
                        data?: components["schemas"]["OrgFact"][];
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
        };
    };
    ApiV1MemoryOrgCreateFact: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes a retry safe: bound to the caller, the route and the resource ids in the path, and kept 24 hours. A retry with the same payload replays the stored status and body with `Idempotent-Replayed: true`; another payload gets 422 (2026); a retry while the first request runs gets 409 (4022, retryable); a malformed key gets 400 (2025). Server errors and request validation failures release the key. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CreateOrgFactRequest"];
            };
        };
        responses: {
            /** @description Success */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiResponse"] & {
                        data?: components["schemas"]["OrgFact"];
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    ApiV1MemoryOrgFactIdDeleteFact: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes a retry safe: bound to the caller, the route and the resource ids in the path, and kept 24 hours. A retry with the same payload replays the stored status and body with `Idempotent-Replayed: true`; another payload gets 422 (2026); a retry while the first request runs gets 409 (4022, retryable); a malformed key gets 400 (2025). Server errors and request validation failures release the key. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path: {
                fact_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description No content */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
        };
    };
    ApiV1MemoryStatusStatus: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiResponse"] & {
                        data?: components["schemas"]["MemoryStatus"];
                    };
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
        };
    };
    ApiV1MessagesList: {
        parameters: {
            query?: {
                /** @description Only this channel (an unknown one: 404, 3007); absent or empty: every channel. */
                channel?: string | null;
                limit?: components["parameters"]["PageLimit"];
                offset?: components["parameters"]["PageOffset"];
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description One page of results */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PaginatedResponse"] & {
                        data?: components["schemas"]["Message"][];
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
        };
    };
    ApiV1MessagesMessageIdGet: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                message_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiResponse"] & {
                        data?: components["schemas"]["Message"];
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
        };
    };
    ApiV1MessagesChannelsChannels: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiResponse"] & {
                        data?: components["schemas"]["Channel"][];
                    };
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
        };
    };
    ApiV1PersonalitiesPresetsList: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiResponse"] & {
                        data?: components["schemas"]["PersonalityPresetSummaryResponse"][];
                    };
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
        };
    };
    ApiV1PersonalitiesPresetsCreate: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes a retry safe: bound to the caller, the route and the resource ids in the path, and kept 24 hours. A retry with the same payload replays the stored status and body with `Idempotent-Replayed: true`; another payload gets 422 (2026); a retry while the first request runs gets 409 (4022, retryable); a malformed key gets 400 (2025). Server errors and request validation failures release the key. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CreatePersonalityPresetRequest"];
            };
        };
        responses: {
            /** @description Success */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiResponse"] & {
                        data?: components["schemas"]["PersonalityPresetResponse"];
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            409: components["responses"]["Conflict"];
        };
    };
    ApiV1PersonalitiesPresetsNameGet: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                name: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiResponse"] & {
                        data?: components["schemas"]["PersonalityPresetResponse"];
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
        };
    };
    ApiV1PersonalitiesPresetsNameUpdate: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes a retry safe: bound to the caller, the route and the resource ids in the path, and kept 24 hours. A retry with the same payload replays the stored status and body with `Idempotent-Replayed: true`; another payload gets 422 (2026); a retry while the first request runs gets 409 (4022, retryable); a malformed key gets 400 (2025). Server errors and request validation failures release the key. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path: {
                name: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["UpdatePersonalityPresetRequest"];
            };
        };
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiResponse"] & {
                        data?: components["schemas"]["PersonalityPresetResponse"];
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
        };
    };
    ApiV1PersonalitiesPresetsNameDelete: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes a retry safe: bound to the caller, the route and the resource ids in the path, and kept 24 hours. A retry with the same payload replays the stored status and body with `Idempotent-Replayed: true`; another payload gets 422 (2026); a retry while the first request runs gets 409 (4022, retryable); a malformed key gets 400 (2025). Server errors and request validation failures release the key. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path: {
                name: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiResponse"] & {
                        data?: {
                            [key: string]: unknown;
                        } | null;
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
        };
    };
    ApiV1PersonalitiesSchemaSchema: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiResponse"] & {
                        data?: {
                            [key: string]: unknown;
                        };
                    };
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
        };
    };
    ApiV1ProjectsList: {
        parameters: {
            query?: {
                /** @description Lead agent id */
                lead?: string;
                limit?: components["parameters"]["PageLimit"];
                offset?: components["parameters"]["PageOffset"];
                status?: "planning" | "active" | "on_hold" | "completed" | "cancelled";
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description One page of results */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PaginatedResponse"] & {
                        data?: components["schemas"]["Project"][];
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
        };
    };
    ApiV1ProjectsCreate: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes a retry safe: bound to the caller, the route and the resource ids in the path, and kept 24 hours. A retry with the same payload replays the stored status and body with `Idempotent-Replayed: true`; another payload gets 422 (2026); a retry while the first request runs gets 409 (4022, retryable); a malformed key gets 400 (2025). Server errors and request validation failures release the key. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CreateProjectRequest"];
            };
        };
        responses: {
            /** @description Success */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiResponse"] & {
                        data?: components["schemas"]["Project"];
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            409: components["responses"]["Conflict"];
        };
    };
    ApiV1ProjectsProjectIdGet: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                project_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiResponse"] & {
                        data?: components["schemas"]["Project"];
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
        };
    };
    ApiV1ProvidersList: {
        parameters: {
            query?: {
                limit?: components["parameters"]["PageLimit"];
                offset?: components["parameters"]["PageOffset"];
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description One page of results */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PaginatedResponse"] & {
                        data?: components["schemas"]["ProviderResponse"][];
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
        };
    };
    ApiV1ProvidersCreate: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes a retry safe: bound to the caller, the route and the resource ids in the path, and kept 24 hours. A retry with the same payload replays the stored status and body with `Idempotent-Replayed: true`; another payload gets 422 (2026); a retry while the first request runs gets 409 (4022, retryable); a malformed key gets 400 (2025). Server errors and request validation failures release the key. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CreateProviderRequest"];
            };
        };
        responses: {
            /** @description Success */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiResponse"] & {
                        data?: components["schemas"]["ProviderResponse"];
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
        };
    };
    ApiV1ProvidersNameGet: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                name: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiResponse"] & {
                        data?: components["schemas"]["ProviderResponse"];
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
        };
    };
    ApiV1ProvidersNameUpdate: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes a retry safe: bound to the caller, the route and the resource ids in the path, and kept 24 hours. A retry with the same payload replays the stored status and body with `Idempotent-Replayed: true`; another payload gets 422 (2026); a retry while the first request runs gets 409 (4022, retryable); a malformed key gets 400 (2025). Server errors and request validation failures release the key. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path: {
                name: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["UpdateProviderRequest"];
            };
        };
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiResponse"] & {
                        data?: components["schemas"]["ProviderResponse"];
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
        };
    };
    ApiV1ProvidersNameDelete: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes a retry safe: bound to the caller, the route and the resource ids in the path, and kept 24 hours. A retry with the same payload replays the stored status and body with `Idempotent-Replayed: true`; another payload gets 422 (2026); a retry while the first request runs gets 409 (4022, retryable); a malformed key gets 400 (2025). Server errors and request validation failures release the key. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path: {
                name: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description No content */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
        };
    };
    ApiV1ProvidersNameDiscoverModelsDiscover: {
        parameters: {
            query?: {
                /** @description Protocol to discover with, as a preset name */
                preset_hint?: string;
            };
            header?: {
                /** @description Makes a retry safe: bound to the caller, the route and the resource ids in the path, and kept 24 hours. A retry with the same payload replays the stored status and body with `Idempotent-Replayed: true`; another payload gets 422 (2026); a retry while the first request runs gets 409 (4022, retryable); a malformed key gets 400 (2025). Server errors and request validation failures release the key. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path: {
                name: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiResponse"] & {
                        data?: components["schemas"]["DiscoverModelsResponse"];
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    ApiV1ProvidersNameHealthHealth: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                name: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiResponse"] & {
                        data?: components["schemas"]["ProviderHealthResponse"];
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
        };
    };
    ApiV1ProvidersNameModelsModels: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                name: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiResponse"] & {
                        data?: components["schemas"]["ProviderModelResponse"][];
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
        };
    };
    ApiV1ProvidersNameModelsModelIdDeleteModel: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes a retry safe: bound to the caller, the route and the resource ids in the path, and kept 24 hours. A retry with the same payload replays the stored status and body with `Idempotent-Replayed: true`; another payload gets 422 (2026); a retry while the first request runs gets 409 (4022, retryable); a malformed key gets 400 (2025). Server errors and request validation failures release the key. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path: {
                model_id: string;
                name: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description No content */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    ApiV1ProvidersNameModelsModelIdConfigConfigure: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes a retry safe: bound to the caller, the route and the resource ids in the path, and kept 24 hours. A retry with the same payload replays the stored status and body with `Idempotent-Replayed: true`; another payload gets 422 (2026); a retry while the first request runs gets 409 (4022, retryable); a malformed key gets 400 (2025). Server errors and request validation failures release the key. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path: {
                model_id: string;
                name: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["UpdateModelConfigRequest"];
            };
        };
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiResponse"] & {
                        data?: components["schemas"]["ModelEntryResponse"];
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
        };
    };
    ApiV1ProvidersNameModelsPullPull: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                name: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["PullModelRequest"];
            };
        };
        responses: {
            /** @description Progress stream */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "text/event-stream": string;
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
        };
    };
    ApiV1ProvidersNameTestTest: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes a retry safe: bound to the caller, the route and the resource ids in the path, and kept 24 hours. A retry with the same payload replays the stored status and body with `Idempotent-Replayed: true`; another payload gets 422 (2026); a retry while the first request runs gets 409 (4022, retryable); a malformed key gets 400 (2025). Server errors and request validation failures release the key. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path: {
                name: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["TestConnectionRequest"];
            };
        };
        responses: {
            /** @description Success */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiResponse"] & {
                        data?: components["schemas"]["TestConnectionResponse"];
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
        };
    };
    ApiV1ProvidersDiscoveryPolicyGet: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiResponse"] & {
                        data?: components["schemas"]["DiscoveryPolicyResponse"];
                    };
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
        };
    };
    ApiV1ProvidersDiscoveryPolicyEntriesAdd: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes a retry safe: bound to the caller, the route and the resource ids in the path, and kept 24 hours. A retry with the same payload replays the stored status and body with `Idempotent-Replayed: true`; another payload gets 422 (2026); a retry while the first request runs gets 409 (4022, retryable); a malformed key gets 400 (2025). Server errors and request validation failures release the key. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["DiscoveryPolicyEntryRequest"];
            };
        };
        responses: {
            /** @description Success */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiResponse"] & {
                        data?: components["schemas"]["DiscoveryPolicyResponse"];
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
        };
    };
    ApiV1ProvidersDiscoveryPolicyRemoveEntryRemove: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes a retry safe: bound to the caller, the route and the resource ids in the path, and kept 24 hours. A retry with the same payload replays the stored status and body with `Idempotent-Replayed: true`; another payload gets 422 (2026); a retry while the first request runs gets 409 (4022, retryable); a malformed key gets 400 (2025). Server errors and request validation failures release the key. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["DiscoveryPolicyEntryRequest"];
            };
        };
        responses: {
            /** @description Success */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiResponse"] & {
                        data?: components["schemas"]["DiscoveryPolicyResponse"];
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
        };
    };
    ApiV1ProvidersFromPresetFromPreset: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes a retry safe: bound to the caller, the route and the resource ids in the path, and kept 24 hours. A retry with the same payload replays the stored status and body with `Idempotent-Replayed: true`; another payload gets 422 (2026); a retry while the first request runs gets 409 (4022, retryable); a malformed key gets 400 (2025). Server errors and request validation failures release the key. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CreateFromPresetRequest"];
            };
        };
        responses: {
            /** @description Success */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiResponse"] & {
                        data?: components["schemas"]["ProviderResponse"];
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
        };
    };
    ApiV1ProvidersPresetsList: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiResponse"] & {
                        data?: components["schemas"]["ProviderPresetResponse"][];
                    };
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
        };
    };
    ApiV1ProvidersProbePresetProbe: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes a retry safe: bound to the caller, the route and the resource ids in the path, and kept 24 hours. A retry with the same payload replays the stored status and body with `Idempotent-Replayed: true`; another payload gets 422 (2026); a retry while the first request runs gets 409 (4022, retryable); a malformed key gets 400 (2025). Server errors and request validation failures release the key. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["ProbePresetRequest"];
            };
        };
        responses: {
            /** @description Success */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiResponse"] & {
                        data?: components["schemas"]["ProbePresetResponse"];
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
        };
    };
    ApiV1ReportsList: {
        parameters: {
            query?: {
                limit?: components["parameters"]["PageLimit"];
                offset?: components["parameters"]["PageOffset"];
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description One page of results */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PaginatedResponse"] & {
                        data?: components["schemas"]["ReportSummary"][];
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
        };
    };
    ApiV1ReportsReportIdGet: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                report_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiResponse"] & {
                        data?: components["schemas"]["Report"];
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
        };
    };
    ApiV1ReportsGenerateGenerate: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes a retry safe: bound to the caller, the route and the resource ids in the path, and kept 24 hours. A retry with the same payload replays the stored status and body with `Idempotent-Replayed: true`; another payload gets 422 (2026); a retry while the first request runs gets 409 (4022, retryable); a malformed key gets 400 (2025). Server errors and request validation failures release the key. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["GenerateReportRequest"];
            };
        };
        responses: {
            /** @description Success */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiResponse"] & {
                        data?: components["schemas"]["Report"];
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
        };
    };
    ApiV1ReportsPeriodsPeriods: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiResponse"] & {
                        data?: components["schemas"]["String"][];
                    };
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
        };
    };
    ApiV1SettingsList: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiResponse"] & {
                        data?: components["schemas"]["SettingEntry"][];
                    };
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
        };
    };
    ApiV1SettingsSchemaSchema: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiResponse"] & {
                        data?: components["schemas"]["SettingDefinition"][];
                    };
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
        };
    };
    ApiV1SettingsSchemaNamespaceNamespaceSchema: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                namespace: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiResponse"] & {
                        data?: components["schemas"]["SettingDefinition"][];
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
        };
    };
    ApiV1SettingsNamespaceNamespace: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                namespace: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiResponse"] & {
                        data?: components["schemas"]["SettingEntry"][];
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
        };
    };
    ApiV1SettingsNamespaceKeyGet: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                key: string;
                namespace: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiResponse"] & {
                        data?: components["schemas"]["SettingEntry"];
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
        };
    };
    ApiV1SettingsNamespaceKeyPut: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes a retry safe: bound to the caller, the route and the resource ids in the path, and kept 24 hours. A retry with the same payload replays the stored status and body with `Idempotent-Replayed: true`; another payload gets 422 (2026); a retry while the first request runs gets 409 (4022, retryable); a malformed key gets 400 (2025). Server errors and request validation failures release the key. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
                /** @description ETag from a previous read; a stale value answers 409 (code 4002) */
                "If-Match"?: string;
            };
            path: {
                key: string;
                namespace: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["UpdateSettingRequest"];
            };
        };
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiResponse"] & {
                        data?: components["schemas"]["SettingEntry"];
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
        };
    };
    ApiV1SettingsNamespaceKeyRemove: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes a retry safe: bound to the caller, the route and the resource ids in the path, and kept 24 hours. A retry with the same payload replays the stored status and body with `Idempotent-Replayed: true`; another payload gets 422 (2026); a retry while the first request runs gets 409 (4022, retryable); a malformed key gets 400 (2025). Server errors and request validation failures release the key. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
                /** @description ETag from a previous read; a stale value answers 409 (code 4002) */
                "If-Match"?: string;
            };
            path: {
                key: string;
                namespace: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description No content */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
        };
    };
    ApiV1SettingsObservabilitySinksList: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiResponse"] & {
                        data?: components["schemas"]["SinkInfo"][];
                    };
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
        };
    };
    ApiV1SettingsObservabilitySinksTestTest: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes a retry safe: bound to the caller, the route and the resource ids in the path, and kept 24 hours. A retry with the same payload replays the stored status and body with `Idempotent-Replayed: true`; another payload gets 422 (2026); a retry while the first request runs gets 409 (4022, retryable); a malformed key gets 400 (2025). Server errors and request validation failures release the key. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["TestSinkConfigRequest"];
            };
        };
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiResponse"] & {
                        data?: components["schemas"]["TestSinkConfigResult"];
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
        };
    };
    ApiV1SettingsSecurityExportExport: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiResponse"] & {
                        data?: components["schemas"]["SecurityConfigExport"];
                    };
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
        };
    };
    ApiV1SettingsSecurityImportImport: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes a retry safe: bound to the caller, the route and the resource ids in the path, and kept 24 hours. A retry with the same payload replays the stored status and body with `Idempotent-Replayed: true`; another payload gets 422 (2026); a retry while the first request runs gets 409 (4022, retryable); a malformed key gets 400 (2025). Server errors and request validation failures release the key. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["ImportSecurityConfigRequest"];
            };
        };
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiResponse"] & {
                        data?: components["schemas"]["SecurityConfigExport"];
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
        };
    };
    ApiV1SetupAgentAddAgent: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes a retry safe: bound to the caller, the route and the resource ids in the path, and kept 24 hours. A retry with the same payload replays the stored status and body with `Idempotent-Replayed: true`; another payload gets 422 (2026); a retry while the first request runs gets 409 (4022, retryable); a malformed key gets 400 (2025). Server errors and request validation failures release the key. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["SetupAgentRequest"];
            };
        };
        responses: {
            /** @description Success */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiResponse"] & {
                        data?: components["schemas"]["SetupAgentSummary"];
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
        };
    };
    ApiV1SetupAgentsAgents: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiResponse"] & {
                        data?: components["schemas"]["SetupAgentsListResponse"];
                    };
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
        };
    };
    ApiV1SetupAgentsAgentIndexModelSetModel: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes a retry safe: bound to the caller, the route and the resource ids in the path, and kept 24 hours. A retry with the same payload replays the stored status and body with `Idempotent-Replayed: true`; another payload gets 422 (2026); a retry while the first request runs gets 409 (4022, retryable); a malformed key gets 400 (2025). Server errors and request validation failures release the key. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path: {
                agent_index: number;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["UpdateAgentModelRequest"];
            };
        };
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiResponse"] & {
                        data?: components["schemas"]["SetupAgentSummary"];
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
        };
    };
    ApiV1SetupAgentsAgentIndexNameSetName: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes a retry safe: bound to the caller, the route and the resource ids in the path, and kept 24 hours. A retry with the same payload replays the stored status and body with `Idempotent-Replayed: true`; another payload gets 422 (2026); a retry while the first request runs gets 409 (4022, retryable); a malformed key gets 400 (2025). Server errors and request validation failures release the key. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path: {
                agent_index: number;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["UpdateAgentNameRequest"];
            };
        };
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiResponse"] & {
                        data?: components["schemas"]["SetupAgentSummary"];
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
        };
    };
    ApiV1SetupAgentsAgentIndexPersonalitySetPersonality: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes a retry safe: bound to the caller, the route and the resource ids in the path, and kept 24 hours. A retry with the same payload replays the stored status and body with `Idempotent-Replayed: true`; another payload gets 422 (2026); a retry while the first request runs gets 409 (4022, retryable); a malformed key gets 400 (2025). Server errors and request validation failures release the key. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path: {
                agent_index: number;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["UpdateAgentPersonalityRequest"];
            };
        };
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiResponse"] & {
                        data?: components["schemas"]["SetupAgentSummary"];
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
        };
    };
    ApiV1SetupAgentsAgentIndexRandomizeNameRandomizeName: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes a retry safe: bound to the caller, the route and the resource ids in the path, and kept 24 hours. A retry with the same payload replays the stored status and body with `Idempotent-Replayed: true`; another payload gets 422 (2026); a retry while the first request runs gets 409 (4022, retryable); a malformed key gets 400 (2025). Server errors and request validation failures release the key. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path: {
                agent_index: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiResponse"] & {
                        data?: components["schemas"]["SetupAgentSummary"];
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
        };
    };
    ApiV1SetupCompanyCreateCompany: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes a retry safe: bound to the caller, the route and the resource ids in the path, and kept 24 hours. A retry with the same payload replays the stored status and body with `Idempotent-Replayed: true`; another payload gets 422 (2026); a retry while the first request runs gets 409 (4022, retryable); a malformed key gets 400 (2025). Server errors and request validation failures release the key. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["SetupCompanyRequest"];
            };
        };
        responses: {
            /** @description Success */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiResponse"] & {
                        data?: components["schemas"]["SetupCompanyResponse"];
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
        };
    };
    ApiV1SetupCompleteComplete: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes a retry safe: bound to the caller, the route and the resource ids in the path, and kept 24 hours. A retry with the same payload replays the stored status and body with `Idempotent-Replayed: true`; another payload gets 422 (2026); a retry while the first request runs gets 409 (4022, retryable); a malformed key gets 400 (2025). Server errors and request validation failures release the key. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiResponse"] & {
                        data?: components["schemas"]["SetupCompleteResponse"];
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            409: components["responses"]["Conflict"];
        };
    };
    ApiV1SetupNameLocalesNameLocales: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiResponse"] & {
                        data?: components["schemas"]["SetupNameLocalesResponse"];
                    };
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
        };
    };
    ApiV1SetupNameLocalesSetNameLocales: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes a retry safe: bound to the caller, the route and the resource ids in the path, and kept 24 hours. A retry with the same payload replays the stored status and body with `Idempotent-Replayed: true`; another payload gets 422 (2026); a retry while the first request runs gets 409 (4022, retryable); a malformed key gets 400 (2025). Server errors and request validation failures release the key. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["SetupNameLocalesRequest"];
            };
        };
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiResponse"] & {
                        data?: components["schemas"]["SetupNameLocalesResponse"];
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            409: components["responses"]["Conflict"];
        };
    };
    ApiV1SetupNameLocalesAvailableAvailableLocales: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiResponse"] & {
                        data?: components["schemas"]["AvailableLocalesResponse"];
                    };
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
        };
    };
    ApiV1SetupPersonalityPresetsPersonalityPresets: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiResponse"] & {
                        data?: components["schemas"]["PersonalityPresetsListResponse"];
                    };
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
        };
    };
    ApiV1SetupStatusStatus: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiResponse"] & {
                        data?: components["schemas"]["SetupStatusResponse"];
                    };
                };
            };
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    ApiV1SetupTemplatesTemplatesList: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiResponse"] & {
                        data?: components["schemas"]["TemplateInfoResponse"][];
                    };
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
        };
    };
    ApiV1SetupTemplatesTemplateNameTemplate: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                template_name: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiResponse"] & {
                        data?: components["schemas"]["TemplateDetailResponse"];
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
        };
    };
    ApiV1TasksList: {
        parameters: {
            query?: {
                /** @description Assignee name or id */
                assigned_to?: string;
                limit?: components["parameters"]["PageLimit"];
                offset?: components["parameters"]["PageOffset"];
                /** @description Project id */
                project?: string;
                /** @description Omitted: created. Empty (or `null`): every status. */
                status?: "created" | "assigned" | "in_progress" | "in_review" | "completed" | "blocked" | "failed" | "interrupted" | "cancelled";
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description One page of results */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PaginatedResponse"] & {
                        data?: components["schemas"]["Task"][];
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
        };
    };
    ApiV1TasksCreate: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes a retry safe: bound to the caller, the route and the resource ids in the path, and kept 24 hours. A retry with the same payload replays the stored status and body with `Idempotent-Replayed: true`; another payload gets 422 (2026); a retry while the first request runs gets 409 (4022, retryable); a malformed key gets 400 (2025). Server errors and request validation failures release the key. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CreateTaskRequest"];
            };
        };
        responses: {
            /** @description Success */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiResponse"] & {
                        data?: components["schemas"]["Task"];
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
        };
    };
    ApiV1TasksTaskIdGet: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                task_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiResponse"] & {
                        data?: components["schemas"]["Task"];
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
        };
    };
    ApiV1TasksTaskIdDelete: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes a retry safe: bound to the caller, the route and the resource ids in the path, and kept 24 hours. A retry with the same payload replays the stored status and body with `Idempotent-Replayed: true`; another payload gets 422 (2026); a retry while the first request runs gets 409 (4022, retryable); a malformed key gets 400 (2025). Server errors and request validation failures release the key. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path: {
                task_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description No content */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
        };
    };
    ApiV1TasksTaskIdUpdate: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes a retry safe: bound to the caller, the route and the resource ids in the path, and kept 24 hours. A retry with the same payload replays the stored status and body with `Idempotent-Replayed: true`; another payload gets 422 (2026); a retry while the first request runs gets 409 (4022, retryable); a malformed key gets 400 (2025). Server errors and request validation failures release the key. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path: {
                task_id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["UpdateTaskRequest"];
            };
        };
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiResponse"] & {
                        data?: components["schemas"]["Task"];
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
        };
    };
    ApiV1TasksTaskIdCancelCancel: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes a retry safe: bound to the caller, the route and the resource ids in the path, and kept 24 hours. A retry with the same payload replays the stored status and body with `Idempotent-Replayed: true`; another payload gets 422 (2026); a retry while the first request runs gets 409 (4022, retryable); a malformed key gets 400 (2025). Server errors and request validation failures release the key. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path: {
                task_id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CancelTaskRequest"];
            };
        };
        responses: {
            /** @description Success */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiResponse"] & {
                        data?: components["schemas"]["Task"];
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
        };
    };
    ApiV1TasksTaskIdCoordinateRun: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes a retry safe: bound to the caller, the route and the resource ids in the path, and kept 24 hours. A retry with the same payload replays the stored status and body with `Idempotent-Replayed: true`; another payload gets 422 (2026); a retry while the first request runs gets 409 (4022, retryable); a malformed key gets 400 (2025). Server errors and request validation failures release the key. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path: {
                task_id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CoordinateTaskRequest"];
            };
        };
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiResponse"] & {
                        data?: components["schemas"]["CoordinationResultResponse"];
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    ApiV1TasksTaskIdTransitionTransition: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes a retry safe: bound to the caller, the route and the resource ids in the path, and kept 24 hours. A retry with the same payload replays the stored status and body with `Idempotent-Replayed: true`; another payload gets 422 (2026); a retry while the first request runs gets 409 (4022, retryable); a malformed key gets 400 (2025). Server errors and request validation failures release the key. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path: {
                task_id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["TransitionTaskRequest"];
            };
        };
        responses: {
            /** @description Success */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiResponse"] & {
                        data?: components["schemas"]["Task"];
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
        };
    };
    ApiV1ToolsServersList: {
        parameters: {
            query?: {
                limit?: components["parameters"]["PageLimit"];
                offset?: components["parameters"]["PageOffset"];
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description One page of results */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PaginatedResponse"] & {
                        data?: components["schemas"]["ToolServer"][];
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
        };
    };
    ApiV1ToolsServersCreate: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes a retry safe: bound to the caller, the route and the resource ids in the path, and kept 24 hours. A retry with the same payload replays the stored status and body with `Idempotent-Replayed: true`; another payload gets 422 (2026); a retry while the first request runs gets 409 (4022, retryable); a malformed key gets 400 (2025). Server errors and request validation failures release the key. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CreateToolServerRequest"];
            };
        };
        responses: {
            /** @description Success */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiResponse"] & {
                        data?: components["schemas"]["ToolServer"];
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            409: components["responses"]["Conflict"];
        };
    };
    ApiV1ToolsServersNameGet: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                name: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiResponse"] & {
                        data?: components["schemas"]["ToolServer"];
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
        };
    };
    ApiV1ToolsServersNameUpdate: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes a retry safe: bound to the caller, the route and the resource ids in the path, and kept 24 hours. A retry with the same payload replays the stored status and body with `Idempotent-Replayed: true`; another payload gets 422 (2026); a retry while the first request runs gets 409 (4022, retryable); a malformed key gets 400 (2025). Server errors and request validation failures release the key. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path: {
                name: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["UpdateToolServerRequest"];
            };
        };
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiResponse"] & {
                        data?: components["schemas"]["ToolServer"];
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
        };
    };
    ApiV1ToolsServersNameDelete: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes a retry safe: bound to the caller, the route and the resource ids in the path, and kept 24 hours. A retry with the same payload replays the stored status and body with `Idempotent-Replayed: true`; another payload gets 422 (2026); a retry while the first request runs gets 409 (4022, retryable); a malformed key gets 400 (2025). Server errors and request validation failures release the key. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path: {
                name: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description No content */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
        };
    };
    ApiV1ToolsServersNameTestTest: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes a retry safe: bound to the caller, the route and the resource ids in the path, and kept 24 hours. A retry with the same payload replays the stored status and body with `Idempotent-Replayed: true`; another payload gets 422 (2026); a retry while the first request runs gets 409 (4022, retryable); a malformed key gets 400 (2025). Server errors and request validation failures release the key. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path: {
                name: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiResponse"] & {
                        data?: components["schemas"]["ToolServerTestResult"];
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
        };
    };
    ApiV1ToolsServersNameToolsTools: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                name: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiResponse"] & {
                        data?: components["schemas"]["ToolServerTool"][];
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
        };
    };
    ApiV1UsersList: {
        parameters: {
            query?: {
                limit?: components["parameters"]["PageLimit"];
                offset?: components["parameters"]["PageOffset"];
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description One page of results */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PaginatedResponse"] & {
                        data?: components["schemas"]["UserResponse"][];
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
        };
    };
    ApiV1UsersCreate: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes a retry safe: bound to the caller, the route and the resource ids in the path, and kept 24 hours. A retry with the same payload replays the stored status and body with `Idempotent-Replayed: true`; another payload gets 422 (2026); a retry while the first request runs gets 409 (4022, retryable); a malformed key gets 400 (2025). Server errors and request validation failures release the key. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CreateUserRequest"];
            };
        };
        responses: {
            /** @description Success */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiResponse"] & {
                        data?: components["schemas"]["UserResponse"];
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            409: components["responses"]["Conflict"];
        };
    };
    ApiV1UsersUserIdGet: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                user_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiResponse"] & {
                        data?: components["schemas"]["UserResponse"];
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
        };
    };
    ApiV1UsersUserIdDelete: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes a retry safe: bound to the caller, the route and the resource ids in the path, and kept 24 hours. A retry with the same payload replays the stored status and body with `Idempotent-Replayed: true`; another payload gets 422 (2026); a retry while the first request runs gets 409 (4022, retryable); a malformed key gets 400 (2025). Server errors and request validation failures release the key. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path: {
                user_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description No content */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
        };
    };
    ApiV1UsersUserIdUpdateRole: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes a retry safe: bound to the caller, the route and the resource ids in the path, and kept 24 hours. A retry with the same payload replays the stored status and body with `Idempotent-Replayed: true`; another payload gets 422 (2026); a retry while the first request runs gets 409 (4022, retryable); a malformed key gets 400 (2025). Server errors and request validation failures release the key. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path: {
                user_id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["UpdateUserRoleRequest"];
            };
        };
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiResponse"] & {
                        data?: components["schemas"]["UserResponse"];
                    };
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
        };
    };
}
