import Testing

@testable import SchedulerKit

/// A repeating Dispatch timer runs one tick per grid slot, however Dispatch delivers its events.
@Suite struct ServedSlotsTests {
    @Test func eachSlotRunsOneTickAndNeverAfterALaterOne() {
        var served = ServedSlots()
        // A second event in slot 0; a late event in slot 2 (slot 1 was missed and is not made up); then 1 and 2 again.
        let slots: [Int64] = [0, 0, 2, 1, 2, 3]
        let ran = slots.map { served.admit($0) }
        #expect(ran == [true, false, true, false, false, true])
    }
}
