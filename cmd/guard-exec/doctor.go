package main

import "context"

func runDoctor(_ context.Context, g *guard, args []string) error { return nil }
