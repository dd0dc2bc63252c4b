struct CaseFailed: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

struct AppBugCase: Sendable {
    /// Short lowerCamelCase id, e.g. "cacheWithoutInFlightDedupe".
    let name: String
    /// One line: what app or library code this is shaped like, and what goes wrong.
    let shape: String
    /// Where the idea comes from: "app pattern", or the public issue/PR it is modelled on (URL), if any.
    let source: String
    /// The buggy version: throws CaseFailed (or hangs) when the bad interleaving happens; returns normally otherwise.
    let buggy: @Sendable (_ clock: any Clock<Duration>) async throws -> Void
    /// The corrected version: must return normally under every interleaving.
    let fixed: @Sendable (_ clock: any Clock<Duration>) async throws -> Void
}

enum AppBugs {
    static let all: [AppBugCase] = [
        AppBugCase(
            name: "cacheWithoutInFlightDedupe",
            shape:
                "Thumbnail cache actor checks its dictionary, awaits the backend, then stores; two concurrent loads of one key both miss and fetch twice.",
            source: "app pattern",
            buggy: CacheDedupe.buggy,
            fixed: CacheDedupe.fixed),
        AppBugCase(
            name: "tokenBucketWaiterAssumesRefill",
            shape:
                "Rate limiter: a caller that finds the bucket empty sleeps one refill interval and takes a token without re-checking; two callers share one refill and the bucket goes negative.",
            source: "app pattern",
            buggy: { try await TokenBucketCase.run($0, buggy: true) },
            fixed: { try await TokenBucketCase.run($0, buggy: false) }),
        AppBugCase(
            name: "fireAndForgetSaveReadTooEarly",
            shape:
                "View model's save() wraps the store insert in a fire-and-forget Task { }; the list refresh right after it reads the store before the insert ran.",
            source: "app pattern",
            buggy: FireAndForget.buggy,
            fixed: FireAndForget.fixed),
        AppBugCase(
            name: "accountWithdrawReentrancy",
            shape:
                "Account actor checks the balance, awaits a fraud check, then debits; a second withdrawal runs during the await and the account is overdrawn.",
            source: "app pattern",
            buggy: { try await AccountReentrancy.run($0, buggy: true) },
            fixed: { try await AccountReentrancy.run($0, buggy: false) }),
        AppBugCase(
            name: "debounceStaleValueAfterCancelCheck",
            shape:
                "Search debouncer built from Task + clock.sleep checks Task.isCancelled off the actor, then hops in to deliver; a newer keystroke between check and hop gets the stale query delivered.",
            source: "app pattern",
            buggy: { try await DebounceCase.run($0, fixed: false) },
            fixed: { try await DebounceCase.run($0, fixed: true) }),
        AppBugCase(
            name: "throttleDropsTrailingValueOnFinish",
            shape:
                "Progress throttle (Task + sleep window) keeps the last value of a window as 'trailing'; finish() cancels the window timer and drops it, so the final 100 % is never shown.",
            source: "https://github.com/apple/swift-async-algorithms/issues/248",
            buggy: { try await ThrottleCase.run($0, fixed: false) },
            fixed: { try await ThrottleCase.run($0, fixed: true) }),
        AppBugCase(
            name: "timeoutTimerCancelsNextRequest",
            shape:
                "Search client's timeout timer cancels 'the current request' and is not cancelled when the request finishes early; it fires during the next request and cancels that one.",
            source: "app pattern",
            buggy: { try await TimeoutCase.run($0, fixed: false) },
            fixed: { try await TimeoutCase.run($0, fixed: true) }),
        AppBugCase(
            name: "retryBackoffSwallowsCancellation",
            shape:
                "Retry-with-backoff loop retries every error including CancellationError and sleeps with try?, so a cancelled caller keeps calling the failing origin.",
            source: "app pattern",
            buggy: { try await RetryCase.run($0, fixed: false) },
            fixed: { try await RetryCase.run($0, fixed: true) }),
        AppBugCase(
            name: "cancelTokenHandlerRegisteredAfterCancel",
            shape:
                "Hand-rolled cancel token: a download registers its abort handler after an await; if the user cancelled first, the handler is stored and never called.",
            source: "app pattern",
            buggy: { try await CancelTokenCase.run($0, fixed: false) },
            fixed: { try await CancelTokenCase.run($0, fixed: true) }),
        AppBugCase(
            name: "semaphoreLostWakeup",
            shape:
                "Async semaphore (actor + continuations) whose nonisolated wait() checks for a permit and enqueues itself in two separate actor calls; a signal in between is lost and the waiter hangs.",
            source: "app pattern",
            buggy: { try await SemaphoreCase.run($0, fixed: false) },
            fixed: { try await SemaphoreCase.run($0, fixed: true) }),
        AppBugCase(
            name: "asyncLockCancelDoubleResume",
            shape:
                "Cancellable async lock: the cancellation handler resumes a queued waiter but leaves it queued, so unlock() resumes the same continuation again (detected, not performed).",
            source: "app pattern",
            buggy: { try await AsyncLockCase.run($0, fixed: false) },
            fixed: { try await AsyncLockCase.run($0, fixed: true) }),
        AppBugCase(
            name: "legacyCallbackTimeoutDoubleResume",
            shape:
                "withCheckedThrowingContinuation bridge over a callback API that can call both completion and onTimeout when they race; both resume the continuation (detected, not performed).",
            source: "app pattern",
            buggy: { try await LegacyBridgeCase.run($0, fixed: false) },
            fixed: { try await LegacyBridgeCase.run($0, fixed: true) }),
        AppBugCase(
            name: "channelSendCancelledBeforeSuspend",
            shape:
                "Rendezvous mailbox send() in withTaskCancellationHandler: the handler only resumes an already-parked sender, so a cancellation that lands before the continuation is stored is lost and send() hangs.",
            source: "https://github.com/apple/swift-async-algorithms/pull/80 (see also issue #131)",
            buggy: { try await MailboxCase.run($0, fixed: false) },
            fixed: { try await MailboxCase.run($0, fixed: true) }),
        AppBugCase(
            name: "progressStreamBufferingOldestDropsCompletion",
            shape:
                "Download progress AsyncStream with .bufferingOldest(1): while the UI is busy rendering, newer events are dropped, sometimes including .finished.",
            source: "app pattern",
            buggy: { try await ProgressStreamCase.run($0, fixed: false) },
            fixed: { try await ProgressStreamCase.run($0, fixed: true) }),
        AppBugCase(
            name: "mergedStreamFinishedByFirstProducer",
            shape:
                "Hand-written merge of two sources into one AsyncStream where each source task calls finish() when it is done; the shorter source ends the stream early.",
            source: "app pattern",
            buggy: { try await MergedFeedCase.run($0, fixed: false) },
            fixed: { try await MergedFeedCase.run($0, fixed: true) }),
        AppBugCase(
            name: "hubSubscriberRegisteredAfterFirstPost",
            shape:
                "Broadcast hub handing out one AsyncStream per subscriber; the consumer Task subscribes itself, so an event posted right after starting it can precede the subscription and is missed.",
            source: "app pattern",
            buggy: { try await HubCase.run($0, fixed: false) },
            fixed: { try await HubCase.run($0, fixed: true) }),
        AppBugCase(
            name: "taskGroupResultsAssumedOrdered",
            shape: "Paged fetch in a task group appends pages in completion order and assumes it is request order.",
            source: "app pattern",
            buggy: { try await PagedFetchCase.run($0, fixed: false) },
            fixed: { try await PagedFetchCase.run($0, fixed: true) }),
        AppBugCase(
            name: "workerBatchStrandsLateSubmissions",
            shape:
                "Job queue actor starts a worker Task from submit(); the worker takes one batch and goes idle in a second actor call, so jobs submitted while the batch ran are stranded.",
            source: "app pattern",
            buggy: { try await JobQueueCase.run($0, fixed: false) },
            fixed: { try await JobQueueCase.run($0, fixed: true) }),
        AppBugCase(
            name: "uploaderMarksIdleBeforeLastUpload",
            shape:
                "Serial uploader clears its running flag when it dequeues the last item, before uploading it; an enqueue during that upload starts a second worker and uploads overlap.",
            source: "app pattern",
            buggy: { try await UploaderCase.run($0, fixed: false) },
            fixed: { try await UploaderCase.run($0, fixed: true) }),
        AppBugCase(
            name: "connectionPoolReleaseDuplicates",
            shape:
                "Connection pool release() appends to the idle list and also hands the connection to a waiter; one connection ends up lent twice and listed twice.",
            source: "app pattern",
            buggy: { try await ConnectionPoolCase.run($0, fixed: false) },
            fixed: { try await ConnectionPoolCase.run($0, fixed: true) }),
        AppBugCase(
            name: "closeRacesConnectLeavesPendingCount",
            shape:
                "Connection provider: close() waits for pending connects, but a connect that finishes after close() started never decrements the pending count nor closes its transport, so close() hangs.",
            source: "https://github.com/swift-server/async-http-client/issues/232",
            buggy: { try await CloseConnectCase.run($0, fixed: false) },
            fixed: { try await CloseConnectCase.run($0, fixed: true) }),
    ]
}
