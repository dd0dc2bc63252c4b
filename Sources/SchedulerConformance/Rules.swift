// The conformance rules (BRIEF §4) live here.
import SchedulerKit
