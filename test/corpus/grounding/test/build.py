# The held-out TEST split of grounding (issue 13 item 4): summaries and candidates written
# BEFORE the scorer was tuned or run against them; never edited to pass. Tune on ../dev only.
# Each entry: (summary, [grounded candidates], [(kind, hallucinated candidate)]).
# Regenerate: python3 build.py (deterministic).
import json, os
HERE = os.path.dirname(os.path.abspath(__file__))
S = [
 ("Over the weekend the user mentioned that they bake sourdough bread on weekends and that their partner handles the coffee.",
  ["User bakes sourdough bread on weekends.", "User bakes sourdough bread.", "User bakes bread on weekends."],
  [("wrong_person", "User handles the coffee."), ("invented_detail", "User bakes rye bread on weekends.")]),
 ("User uses Neovim for most of their coding and VS Code only for pair programming sessions.",
  ["User uses Neovim for most of their coding.", "User uses VS Code for pair programming.", "User codes in Neovim."],
  [("mixed_clauses", "User uses VS Code for most of their coding."), ("mixed_clauses", "User uses Neovim for pair programming.")]),
 ("User has a dog named Rufus and a cat named Miso.",
  ["User has a dog named Rufus.", "User has a cat named Miso.", "User has a dog.", "User owns a cat."],
  [("mixed_entities", "User has a cat named Rufus."), ("mixed_entities", "User has a dog named Miso.")]),
 ("User writes Go at work and uses Python for hobby projects.",
  ["User writes Go at work.", "User uses Python for hobby projects.", "User programs in Python for hobbies."],
  [("mixed_clauses", "User writes Python at work."), ("mixed_clauses", "User uses Go for hobby projects.")]),
 ("User drinks tea in the morning and coffee after lunch.",
  ["User drinks tea in the morning.", "User drinks coffee after lunch.", "User drinks tea."],
  [("mixed_clauses", "User prefers coffee in the morning."), ("mixed_clauses", "User drinks tea after lunch.")]),
 ("She said she is training for a half marathon in October and her brother runs ultramarathons.",
  ["User is training for a half marathon.", "User is training for a half marathon in October."],
  [("wrong_person", "User runs ultramarathons."), ("invented_detail", "User is training for a marathon in November.")]),
 ("He works as a nurse at a children's hospital and volunteers at the food bank on Sundays.",
  ["User works as a nurse.", "User works at a children's hospital.", "User volunteers at the food bank on Sundays.", "User volunteers at a food bank."],
  [("mixed_clauses", "User volunteers at a children's hospital on Sundays."), ("extrapolation", "User is a doctor.")]),
 ("User is allergic to peanuts but loves almond butter.",
  ["User is allergic to peanuts.", "User loves almond butter.", "User has a peanut allergy."],
  [("mixed_clauses", "User is allergic to almond butter."), ("negation", "User loves peanuts.")]),
 ("User lives in Lisbon and grew up in Porto.",
  ["User lives in Lisbon.", "User grew up in Porto."],
  [("mixed_clauses", "User lives in Porto."), ("mixed_clauses", "User grew up in Lisbon.")]),
 ("They play the piano every evening and are learning the cello.",
  ["User plays the piano every evening.", "User plays the piano.", "User is learning the cello."],
  [("mixed_clauses", "User plays the cello every evening."), ("mixed_clauses", "User is learning the piano.")]),
 ("User reads science fiction on the train and listens to jazz while cooking.",
  ["User reads science fiction on the train.", "User listens to jazz while cooking.", "User reads science fiction."],
  [("mixed_clauses", "User listens to jazz on the train."), ("mixed_clauses", "User reads science fiction while cooking.")]),
 ("User does not drink alcohol and prefers sparkling water at dinner.",
  ["User does not drink alcohol.", "User prefers sparkling water at dinner.", "User doesn't drink alcohol."],
  [("negation", "User drinks alcohol."), ("mixed_clauses", "User prefers alcohol at dinner.")]),
 ("User's manager asked them to lead the migration project, and User wants to learn Kubernetes first.",
  ["User wants to learn Kubernetes.", "User's manager asked them to lead the migration project."],
  [("extrapolation", "User leads the migration project."), ("extrapolation", "User knows Kubernetes.")]),
 ("User has two kids, Ana and Leo; Ana plays football and Leo takes violin lessons.",
  ["User has two kids.", "User has two children."],
  [("wrong_person", "User plays football."), ("wrong_person", "User takes violin lessons."), ("mixed_entities", "Ana takes violin lessons.")]),
 ("User prefers dark mode in every editor and dislikes notification sounds.",
  ["User prefers dark mode.", "User prefers dark mode in every editor.", "User dislikes notification sounds."],
  [("negation", "User likes notification sounds."), ("invented_detail", "User prefers light mode.")]),
 ("User used to smoke but quit five years ago, and now cycles to work every day.",
  ["User cycles to work every day.", "User quit smoking.", "User cycles to work."],
  [("extrapolation", "User smokes."), ("invented_detail", "User drives to work every day.")]),
 ("User is vegetarian and cooks Indian food for friends on Fridays.",
  ["User is vegetarian.", "User cooks Indian food for friends on Fridays.", "User cooks Indian food."],
  [("invented_detail", "User cooks Thai food on Fridays."), ("extrapolation", "User is vegan.")]),
 ("User keeps their notes in Obsidian and their tasks in Todoist.",
  ["User keeps their notes in Obsidian.", "User keeps their tasks in Todoist.", "User uses Obsidian for notes."],
  [("mixed_clauses", "User keeps their notes in Todoist."), ("mixed_clauses", "User keeps their tasks in Obsidian.")]),
 ("User is studying for the AWS Solutions Architect exam and plans to take it in spring.",
  ["User is studying for the AWS Solutions Architect exam.", "User plans to take the exam in spring."],
  [("extrapolation", "User passed the AWS Solutions Architect exam."), ("extrapolation", "User is an AWS Solutions Architect.")]),
 ("User's wife is a teacher and User works as a software engineer at a bank.",
  ["User works as a software engineer.", "User works at a bank.", "User is a software engineer."],
  [("wrong_person", "User is a teacher."), ("mixed_entities", "User's wife works at a bank.")]),
 ("User enjoys hiking in the Alps in summer and skiing in Norway in winter.",
  ["User enjoys hiking in the Alps.", "User enjoys skiing in Norway.", "User enjoys hiking."],
  [("mixed_clauses", "User enjoys skiing in the Alps."), ("mixed_clauses", "User enjoys hiking in Norway in winter.")]),
 ("User said they sleep badly when they drink coffee after 4 pm.",
  ["User sleeps badly when they drink coffee after 4 pm."],
  [("extrapolation", "User sleeps badly."), ("extrapolation", "User drinks coffee after 4 pm.")]),
]
with open(os.path.join(HERE, "triples.jsonl"), "w") as out:
    for summary, grounded, hallucinated in S:
        for c in grounded:
            out.write(json.dumps({"summary": summary, "candidate": c, "grounded": True, "kind": "restatement"}) + "\n")
        for kind, c in hallucinated:
            out.write(json.dumps({"summary": summary, "candidate": c, "grounded": False, "kind": kind}) + "\n")
n = sum(len(g) + len(h) for _, g, h in S)
print(len(S), "summaries,", n, "triples,", sum(len(g) for _, g, _ in S), "grounded")
