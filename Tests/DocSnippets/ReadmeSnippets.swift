// swift-format-ignore-file
// The snippets are README.md's, as written there (DocSnippetsTests checks that they are).
import SchedulerBench
import SchedulerConformance
import SchedulerKit
import Testing

@Suite(.disabled("compiled, not run: README.md's tour")) struct ReadmeSnippets {
    @Test func scheduleCancelAndKnowWhereYouAre() {
        let pool = ThreadPool(name: "app")                     // lock + condition-variable workers, one per core
        let ui = pool.makeScheduler(name: "ui")                // serial: one task at a time, FIFO per producer
        let handle = ui.schedule { assert(Schedulers.current === ui) }
        if handle.cancel() { /* true only if the task is now guaranteed never to run */ }
        ui.schedule(at: ui.now.advanced(by: .milliseconds(5))) { /* never early, on the monotonic clock */ }
        pool.shutdown()                                        // what has not started is cancelled, exactly once
    }

    @Test func benchItBesideOurs() throws {
        let run = try BenchYourOwn.run([.subject(mine), .subject(.threadPool)], beside: [.rawDispatch], workloads: [.throughput, .pingPong])
        print(run.table)                                       // run.folder holds the summary.csv and samples.csv
    }
}

@Suite(.disabled("compiled, not run: README.md's kit")) struct ReadmeKitSnippet {
let mine = ConformanceBackend(name: "MyScheduler", declarations: [.c4: "a cancelled closure is freed when reached"]) {
    MyScheduler()                                      // its traits select the rules; declarations say what it does not keep
}
@Test(arguments: ConformanceRules.rules(for: .scheduler)) func conformance(_ rule: ConformanceRule) {
    let result = mine.evaluate(rule)                   // passed, failed(detail), declared(reason) or not applicable
    #expect(!result.outcome.isFailure, Comment(rawValue: result.failureMessage))
}
}
