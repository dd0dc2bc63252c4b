Console.main(Bench.self)
