package policy

import (
	"strings"
	"sync"

	"github.com/guard-exec/guard-exec/parse"
)

// Infrastructure rules. Destroying a whole stack, cluster, namespace,
// database server, bucket or repository holds: it takes other people's
// data and service with it. Deleting one routine object (a pod, a
// deployment, a function, a queue) warns: it is often part of the job and
// can be recreated. Applying changes without the tool's own review step
// warns.

var infraRules = []*Rule{
	{
		ID: "infra-destroy", Family: "infra", Severity: Hold,
		Message:  "destroys the infrastructure a stack manages (servers, databases, networks) in one go",
		Hint:     "run the plan or preview (terraform plan -destroy, pulumi preview --destroy) and let a person run the destroy",
		Programs: iacPrograms,
		Command:  func(_ *Ctx, c *parse.Command) bool { return iacAction(c) == Hold },
		Raw:      `\b(terraform|tofu|terragrunt|pulumi|cdk|cdktf)\b[^|;&\n]*\s(destroy|-destroy|--destroy)\b|\b(serverless|sls)\s+remove\b|\beksctl\s+delete\s+cluster\b`,
		Examples: []string{
			"terraform destroy",
			"terraform destroy -auto-approve",
			"terraform -chdir=infra destroy -target=module.db",
			"terraform apply -destroy",
			"terraform apply --destroy -auto-approve",
			"tofu destroy",
			"terragrunt run-all destroy",
			"pulumi destroy --yes",
			"pulumi stack rm dev --force",
			"cdk destroy --all --force",
			"npx cdk destroy",
			"pnpm exec cdk destroy --all",
			"yarn cdktf destroy",
			"serverless remove --stage prod",
			"sam delete --stack-name app",
			"eksctl delete cluster --name prod",
			"terraform apply -replace=aws_db_instance.prod -auto-approve",
		},
		NotExamples: []string{
			"terraform plan",
			"terraform apply -replace=aws_instance.web",
			"terraform plan -destroy",
			"terraform apply",
			"terraform init",
			"pulumi preview --destroy",
			"cdk diff",
			"terraform destroy --help",
			"echo terraform destroy",
			"npx cdk diff",
			"npx cdk destroy --help",
		},
	},
	{
		ID: "infra-apply-unreviewed", Family: "infra", Severity: Warn,
		Message:     "applies infrastructure changes without the tool's review step",
		Hint:        "run the plan first (terraform plan -out=tfplan) and apply that reviewed plan",
		Programs:    iacPrograms,
		Command:     func(_ *Ctx, c *parse.Command) bool { return iacAction(c) == Warn },
		Examples:    []string{"terraform apply -auto-approve", "tofu apply --auto-approve", "pulumi up --yes", "cdk deploy --require-approval never", "terraform state rm aws_instance.x", "terraform workspace delete dev"},
		NotExamples: []string{"terraform apply tfplan", "terraform apply", "pulumi up", "cdk deploy", "terraform state list"},
	},
	{
		ID: "kubectl-delete-broad", Family: "infra", Severity: Hold,
		Message:  "deletes Kubernetes objects wholesale (namespaces, nodes, volumes, CRDs, --all or every namespace), with their workloads and data",
		Hint:     "delete the one object you mean by name (kubectl delete pod NAME -n NS), after kubectl get to check",
		Programs: kubePrograms,
		Command:  func(_ *Ctx, c *parse.Command) bool { return kubeDelete(c) == Hold },
		Raw:      `\b(kubectl|oc)\b[^|;&\n]*\bdelete\b[^|;&\n]*(\s(ns|namespaces?|nodes?|pv|pvc|persistentvolume\w*|crds?|customresourcedefinitions?)\b|--all\b|\s-A\b)`,
		Examples: []string{
			"kubectl delete namespace prod",
			"kubectl delete ns staging",
			"kubectl delete namespace/prod",
			"kubectl delete pods --all",
			"kubectl delete deploy --all -n prod",
			"kubectl delete pods -A --field-selector=status.phase=Failed",
			"kubectl delete node worker-1",
			"kubectl delete pv data-vol",
			"kubectl delete pvc -l app=db",
			"kubectl delete crd widgets.example.com",
			"kubectl --context prod delete all --all",
			"oc delete project team-a",
		},
		NotExamples: []string{
			"kubectl delete pod web-1",
			"kubectl get pods -A",
			"kubectl describe ns prod",
			"kubectl logs deploy/web",
			"kubectl delete --help",
			"kubectl delete pod web-1 --dry-run=client",
		},
	},
	{
		ID: "kubectl-delete", Family: "infra", Severity: Warn,
		Message:     "deletes Kubernetes objects",
		Hint:        "check what will go with kubectl get (or --dry-run=server) first",
		Programs:    kubePrograms,
		Command:     func(_ *Ctx, c *parse.Command) bool { return kubeDelete(c) == Warn },
		Examples:    []string{"kubectl delete pod web-1", "kubectl delete -f deploy.yaml", "kubectl delete deploy web -n dev", "kubectl drain node-1 --ignore-daemonsets", "kubectl delete pods -l app=web"},
		NotExamples: []string{"kubectl get pods", "kubectl apply -f x.yaml", "kubectl delete ns prod", "kubectl cordon node-1"},
	},
	{
		ID: "helm-uninstall", Family: "infra", Severity: Hold,
		Message:  "uninstalls a Helm release, deleting every object it created",
		Hint:     "check the release with helm status and let a person uninstall it",
		Programs: []string{"helm"},
		Command: func(_ *Ctx, c *parse.Command) bool {
			switch first(leadingOperands(c, 1)) {
			case "uninstall", "delete", "del", "un", "remove", "rm":
				return c.Row == "helm" && !c.Flag("dry-run") && !c.Flag("help")
			}
			return false
		},
		Raw:         `\bhelm\b[^|;&\n]*\s(uninstall|delete|del|un)\s`,
		Examples:    []string{"helm uninstall web", "helm delete web --purge", "helm -n prod uninstall api", "helm un x"},
		NotExamples: []string{"helm install web ./chart", "helm list", "helm uninstall web --dry-run", "helm status web"},
	},
	{
		ID: "gitops-delete", Family: "infra", Severity: Hold,
		Message:  "deletes a GitOps application or Flux object together with every object it deployed",
		Hint:     "check the application with argocd app get or flux get, and let a person delete it (argocd app delete --cascade=false keeps what it deployed)",
		Programs: []string{"argocd", "flux"},
		Command: func(_ *Ctx, c *parse.Command) bool {
			ops := leadingOperands(c, 2)
			if len(ops) < 2 || c.Flag("help") {
				return false
			}
			switch c.Row {
			case "argocd":
				return ops[0] == "app" && (ops[1] == "delete" || ops[1] == "rm") && !c.Flag("no-cascade")
			case "flux":
				return ops[0] == "delete" && (ops[1] == "kustomization" || ops[1] == "ks" || ops[1] == "helmrelease" || ops[1] == "hr")
			}
			return false
		},
		Raw:         `\bargocd\b[^|;&\n]*\sapp\s+(delete|rm)\b|\bflux\b[^|;&\n]*\sdelete\s+(kustomization|ks|helmrelease|hr)\b`,
		Examples:    []string{"argocd app delete prod", "argocd app delete prod --cascade -y", "flux delete kustomization prod", "flux delete hr api -n prod --silent"},
		NotExamples: []string{"argocd app get prod", "argocd app delete prod --cascade=false", "flux get kustomizations", "flux delete source git x"},
	},
	{
		ID: "cloud-delete-data", Family: "infra", Severity: Hold,
		Message:  "deletes cloud resources that hold data or run a service (instances, databases, clusters, buckets, projects)",
		Hint:     "take a snapshot or backup first, check the target with a describe or list command, and let a person delete it",
		Programs: cloudPrograms,
		Command:  func(_ *Ctx, c *parse.Command) bool { return cloudDelete(c) == Hold },
		Raw:      `\baws\s+[^|;&\n]*\b(s3\s+rm\b[^|;&\n]*--recursive|s3\s+rb\b[^|;&\n]*--force|terminate-instances|delete-db-(instance|cluster)|delete-stack|delete-table|delete-bucket)|\bgcloud\b[^|;&\n]*\bdelete\b|\bgsutil\b[^|;&\n]*\b(rm\s+-[a-zA-Z]*r|rb)\b|\baz\s+group\s+delete\b`,
		Examples: []string{
			"aws s3 rm s3://bucket --recursive",
			"aws s3 rb s3://bucket --force",
			"aws ec2 terminate-instances --instance-ids i-123",
			"aws --profile prod rds delete-db-instance --db-instance-identifier db1 --skip-final-snapshot",
			"aws cloudformation delete-stack --stack-name app",
			"aws dynamodb delete-table --table-name t",
			"aws s3api delete-bucket --bucket b",
			"aws kms schedule-key-deletion --key-id k",
			"gcloud projects delete my-project",
			"gcloud compute instances delete vm-1 --zone us-central1-a",
			"gcloud sql instances delete db",
			"gcloud container clusters delete prod",
			"gcloud storage rm -r gs://bucket",
			"gsutil -m rm -r gs://bucket",
			"gsutil rb gs://bucket",
			"az group delete --name rg --yes",
			"az vm delete -g rg -n vm1",
			"doctl compute droplet delete web-1",
			"hcloud server delete web",
			"rclone purge remote:backups",
			"s3cmd del --recursive --force s3://bucket",
			"mc rm --recursive --force local/bucket",
			"s3cmd rb s3://bucket",
			"mc rb local/bucket",
			"gsutil rm -a gs://b/o",
		},
		NotExamples: []string{
			"mc rm --force local/bucket/x",
			"rclone delete remote:old",
			"aws s3 ls",
			"aws s3 cp file s3://bucket/",
			"aws ec2 describe-instances",
			"gcloud compute instances list",
			"gsutil ls gs://bucket",
			"az group list",
			"aws s3 rm s3://bucket/key.txt",
			"aws s3 rm s3://bucket --recursive --dryrun",
			"rclone purge remote:x --dry-run",
		},
	},
	{
		ID: "cloud-delete", Family: "infra", Severity: Warn,
		Message:  "deletes a cloud resource",
		Hint:     "check the target with a describe or list command first",
		Programs: cloudPrograms,
		Command:  func(_ *Ctx, c *parse.Command) bool { return cloudDelete(c) == Warn },
		Examples: []string{
			"aws s3 rm s3://bucket/key.txt",
			"aws lambda delete-function --function-name f",
			"aws iam delete-role --role-name r",
			"gcloud run services delete api",
			"az webapp delete -g rg -n app",
			"gsutil rm gs://b/obj",
			"aws s3 rb s3://bucket",
			"aws s3 sync dist s3://site --delete",
			"gcloud storage rm gs://b/obj",
			"s3cmd del s3://b/obj",
			"mc rm --recursive local/bucket/x",
			"rclone delete remote:old",
			"rclone sync dist remote:site",
		},
		NotExamples: []string{"aws s3 ls", "aws ec2 terminate-instances --instance-ids i-1", "gcloud projects list",
			"aws s3 sync dist s3://site", "rclone purge remote:x", "s3cmd rb s3://b", "mc rm --recursive --force local/bucket", "rclone delete -i remote:old"},
	},
	{
		ID: "gh-repo-delete", Family: "infra", Severity: Hold,
		Message:  "deletes a GitHub repository with its issues, pull requests and wiki, or makes a private one public",
		Hint:     "archive the repository instead (gh repo archive), and let the owner delete or publish it",
		Programs: []string{"gh", "glab"},
		Command:  ghRepoDanger,
		Raw:      `\bgh\s+repo\s+(delete|edit\b[^|;&\n]*--visibility[ =]public)\b|\bgh\s+api\b[^|;&\n]*-X\s*DELETE\s+/?repos/[^/\s]+/[^/\s]+/?(\s|$)`,
		Examples: []string{
			"gh repo delete owner/repo --yes",
			"gh repo delete",
			"gh repo edit --visibility public",
			"gh repo edit o/r --visibility=public --accept-visibility-change-consequences",
			"gh api -X DELETE repos/o/r",
			"glab repo delete group/project --yes",
		},
		NotExamples: []string{"gh repo view", "gh repo clone o/r", "gh repo edit --description x", "gh api repos/o/r", "gh api -X DELETE repos/o/r/issues/comments/1"},
	},
	{
		ID: "gh-api-ref-delete", Family: "infra", Severity: Hold,
		Message:  "deletes a branch or tag on GitHub, or a branch's protection, through the API",
		Hint:     "delete a branch you made with git push origin --delete NAME after checking it is merged; leave protections to the owner",
		Programs: []string{"gh"},
		Command:  ghRefDelete,
		Raw:      `\bgh\s+api\b[^|;&\n]*-X\s*DELETE\s+/?repos/[^/\s]+/[^/\s]+/(git/refs/|branches/\S+/protection)`,
		Examples: []string{
			"gh api -X DELETE repos/o/r/git/refs/heads/main",
			"gh api --method DELETE /repos/o/r/git/refs/tags/v1.0",
			"gh api -X DELETE repos/o/r/branches/main/protection",
		},
		NotExamples: []string{"gh api repos/o/r/git/refs/heads/main", "gh api -X DELETE repos/o/r/issues/comments/1"},
	},
	{
		ID: "gh-delete", Family: "infra", Severity: Warn,
		Message:  "deletes a GitHub release, or archives a repository",
		Hint:     "check it is the one you mean with gh release view",
		Programs: []string{"gh"},
		Command: func(_ *Ctx, c *parse.Command) bool {
			return ghPath(c, "release", "delete") || ghPath(c, "repo", "archive")
		},
		Examples:    []string{"gh release delete v1.0 --yes", "gh repo archive o/r"},
		NotExamples: []string{"gh release list", "gh repo delete o/r"},
	},
	{
		ID: "docker-prune-all", Family: "infra", Severity: Hold,
		Message:  "removes every unused image and, with volumes, the data of every stopped container's volumes, or deletes volumes chosen at run time",
		Hint:     "remove the specific containers, images or volumes you mean (docker volume rm NAME), after docker volume ls",
		Programs: []string{"docker", "podman"},
		Command:  func(_ *Ctx, c *parse.Command) bool { return dockerCleanup(c) == Hold },
		Raw:      `\b(docker|podman)\s+(system\s+prune\b[^|;&\n]*(-a\b|--all|--volumes)|system\s+reset\b|volume\s+prune\b)`,
		Examples: []string{
			"docker system prune -a",
			"docker system prune --all --force",
			"docker system prune --volumes -f",
			"docker volume prune -f",
			"podman system prune -a",
			"podman system reset -f",
			"docker volume rm $(docker volume ls -q)",
			"docker volume rm -f $(docker volume ls -qf dangling=true)",
		},
		NotExamples: []string{"docker system prune", "docker system prune -f", "docker image prune", "docker ps -a", "docker system df", "docker volume rm pgdata", "docker rm -f $(docker ps -aq)"},
	},
	{
		ID: "docker-remove-data", Family: "infra", Severity: Warn,
		Message:  "force-removes containers or images chosen at run time, or deletes volumes with their data",
		Hint:     "list what would go first (docker ps -a, docker volume ls) and remove those by name",
		Programs: []string{"docker", "podman", "docker-compose"},
		Command:  func(_ *Ctx, c *parse.Command) bool { return dockerCleanup(c) == Warn },
		Examples: []string{
			"docker rm -f $(docker ps -aq)",
			"docker rmi -f $(docker images -q)",
			"docker volume rm pgdata",
			"docker compose down -v",
			"docker-compose down --volumes",
		},
		NotExamples: []string{"docker rm web", "docker compose down", "docker rm -f web", "docker volume ls", "docker volume rm $(docker volume ls -q)"},
	},
	{
		ID: "paas-destroy", Family: "infra", Severity: Hold,
		Message:  "destroys a hosted app, its database or its volumes on the platform",
		Hint:     "scale the app down or back the data up, and let a person destroy it",
		Programs: []string{"heroku", "fly", "flyctl", "netlify", "firebase", "supabase", "railway", "vercel"},
		Command:  func(_ *Ctx, c *parse.Command) bool { return paasAction(c) == Hold },
		Raw:      `\bheroku\s+(apps:destroy|pg:reset|addons:destroy)\b|\b(fly|flyctl)\s+(apps|volumes|postgres)\s+(destroy|delete)\b|\bfirebase\s+firestore:delete\b`,
		Examples: []string{
			"heroku apps:destroy my-app --confirm my-app",
			"heroku pg:reset DATABASE_URL",
			"fly apps destroy my-app",
			"flyctl volumes destroy vol_123",
			"netlify sites:delete site-id",
			"firebase firestore:delete --all-collections",
			"supabase projects delete ref",
		},
		NotExamples: []string{"heroku logs --tail", "fly deploy", "firebase deploy", "netlify deploy --prod", "supabase start"},
	},
	{
		ID: "paas-remove", Family: "infra", Severity: Warn,
		Message:     "removes a hosted deployment or disables hosting",
		Hint:        "check which deployment it is (vercel ls) before removing it",
		Programs:    []string{"vercel", "railway", "firebase"},
		Command:     func(_ *Ctx, c *parse.Command) bool { return paasAction(c) == Warn },
		Examples:    []string{"vercel remove my-app --yes", "vercel rm dpl_123", "railway down", "firebase hosting:disable"},
		NotExamples: []string{"vercel deploy", "vercel ls", "railway up"},
	},
}

var (
	iacPrograms   = []string{"terraform", "tofu", "terragrunt", "pulumi", "cdk", "cdktf", "serverless", "sls", "sam", "amplify", "copilot", "eksctl"}
	kubePrograms  = []string{"kubectl", "oc", "kubecolor"}
	cloudPrograms = []string{"aws", "gcloud", "gsutil", "az", "doctl", "hcloud", "s3cmd", "rclone", "mc"}
)

// iacAction classifies infrastructure-as-code commands: Hold for a
// destroy, Warn for an unreviewed apply or a state edit.
func iacAction(c *parse.Command) Severity {
	name := c.Name
	if !anyString(iacPrograms, name) {
		return Allow
	}
	if c.Flag("help") {
		return Allow
	}
	ops := c.Operands(parse.RoleData)
	sub := ""
	if len(ops) > 0 {
		sub = ops[0].Value
	}
	switch name {
	case "terraform", "tofu", "terragrunt":
		if name == "terragrunt" && (sub == "run-all" || sub == "run") && len(ops) > 1 {
			sub = ops[1].Value
		}
		switch sub {
		case "destroy":
			return Hold
		case "apply":
			if c.Flag("destroys") {
				return Hold
			}
			if c.Flag("unreviewed") && len(c.OptionValues("-replace")) > 0 {
				// -replace destroys the resource and makes a new one
				// (a database, with its data), and nobody reviews it.
				return Hold
			}
			if c.Flag("unreviewed") && !applyPlanFile(ops) {
				return Warn
			}
		case "state":
			if len(ops) > 1 && (ops[1].Value == "rm" || ops[1].Value == "push") {
				return Warn
			}
		case "workspace":
			if len(ops) > 1 && ops[1].Value == "delete" {
				return Warn
			}
		}
	case "pulumi":
		switch sub {
		case "destroy", "down":
			if !c.Flag("preview") {
				return Hold
			}
		case "stack":
			if len(ops) > 1 && (ops[1].Value == "rm" || ops[1].Value == "remove") {
				return Hold
			}
		case "up", "update":
			if c.Flag("yes") {
				return Warn
			}
		case "state":
			if len(ops) > 1 && ops[1].Value == "delete" {
				return Warn
			}
		}
	case "cdk", "cdktf":
		switch sub {
		case "destroy":
			return Hold
		case "deploy":
			if c.Flag("unreviewed") {
				return Warn
			}
			for _, w := range c.OptionValues("--require-approval") {
				if w.Value == "never" {
					return Warn
				}
			}
		}
	case "serverless", "sls":
		if sub == "remove" {
			return Hold
		}
	case "sam", "amplify":
		if sub == "delete" {
			return Hold
		}
	case "copilot":
		if len(ops) > 1 && ops[1].Value == "delete" {
			return Hold
		}
	case "eksctl":
		if sub == "delete" && len(ops) > 1 && (ops[1].Value == "cluster" || ops[1].Value == "nodegroup") {
			return Hold
		}
	}
	return Allow
}

// applyPlanFile reports terraform apply of a saved plan: the plan was the
// review.
func applyPlanFile(ops []parse.Word) bool {
	return len(ops) > 1 && !strings.Contains(ops[len(ops)-1].Value, "=")
}

// kubeBroadTypes are resource types whose deletion takes everything in
// them (a namespace), the cluster's capacity (nodes), or stored data
// (volumes), or every object of a kind (CRDs). Built on first use, like
// the cloud tables below: only the rules for those programs read them,
// and a map literal is built at package init, which every command pays.
var kubeBroadTypes = sync.OnceValue(func() map[string]bool {
	return map[string]bool{
		"namespace": true, "namespaces": true, "ns": true, "project": true, "projects": true,
		"node": true, "nodes": true, "no": true,
		"pv": true, "persistentvolume": true, "persistentvolumes": true,
		"pvc": true, "persistentvolumeclaim": true, "persistentvolumeclaims": true,
		"crd": true, "crds": true, "customresourcedefinition": true, "customresourcedefinitions": true,
		"storageclass": true, "storageclasses": true, "sc": true,
	}
})

// kubeDelete classifies kubectl delete and drain.
func kubeDelete(c *parse.Command) Severity {
	ops := c.Operands(parse.RoleData)
	if c.Row != "kubectl" || len(ops) == 0 || c.Flag("help") {
		return Allow
	}
	switch ops[0].Value {
	case "drain":
		return Warn
	case "delete":
	default:
		return Allow
	}
	if c.Flag("dry-run") {
		return Allow
	}
	if c.Flag("all") {
		return Hold
	}
	for _, op := range ops[1:] {
		for _, t := range strings.Split(op.Value, ",") {
			t, _, _ = strings.Cut(t, "/")
			t, _, _ = strings.Cut(t, ".")
			if kubeBroadTypes()[strings.ToLower(t)] {
				return Hold
			}
		}
	}
	return Warn
}

// cloud resources whose deletion holds, by "service operation" (aws) or
// by group (gcloud, az).
var (
	awsDataOps = sync.OnceValue(func() map[string]bool {
		return map[string]bool{
			"ec2 terminate-instances": true, "ec2 delete-vpc": true, "ec2 delete-volume": true,
			"rds delete-db-instance": true, "rds delete-db-cluster": true, "rds delete-global-cluster": true,
			"cloudformation delete-stack": true, "dynamodb delete-table": true, "s3api delete-bucket": true,
			"s3api delete-objects": true, "eks delete-cluster": true, "eks delete-nodegroup": true,
			"ecs delete-cluster": true, "ecs delete-service": true, "elasticache delete-cache-cluster": true,
			"elasticache delete-replication-group": true, "efs delete-file-system": true, "ecr delete-repository": true,
			"kms schedule-key-deletion": true, "route53 delete-hosted-zone": true, "redshift delete-cluster": true,
			"es delete-elasticsearch-domain": true, "opensearch delete-domain": true, "organizations delete-organization": true,
			"organizations close-account": true, "backup delete-backup-vault": true, "glacier delete-vault": true,
			"cognito-idp delete-user-pool": true, "kinesis delete-stream": true, "docdb delete-db-cluster": true,
			"neptune delete-db-cluster": true, "lightsail delete-instance": true, "lightsail delete-relational-database": true,
		}
	})
	gcloudDataGroups = sync.OnceValue(func() map[string]bool {
		return map[string]bool{
			"projects": true, "instances": true, "disks": true, "snapshots": true, "sql": true, "clusters": true,
			"buckets": true, "spanner": true, "bigtable": true, "firestore": true, "datastore": true, "filestore": true,
			"redis": true, "memcache": true, "alloydb": true, "dataproc": true, "composer": true, "kms": true,
			"secrets": true, "deployment-manager": true, "networks": true, "images": true, "databases": true,
		}
	})
	azDataGroups = sync.OnceValue(func() map[string]bool {
		return map[string]bool{
			"group": true, "vm": true, "vmss": true, "disk": true, "sql": true, "storage": true, "cosmosdb": true,
			"aks": true, "keyvault": true, "postgres": true, "mysql": true, "redis": true, "acr": true, "synapse": true,
			"databricks": true, "snapshot": true,
		}
	})
)

// cloudDelete classifies aws, gcloud, gsutil, az, doctl and hcloud
// deletions from the rows' operands (the subcommand path first) and
// flags.
func cloudDelete(c *parse.Command) Severity {
	if c.Flag("dry-run") {
		return Allow // aws --dryrun, rclone/s3cmd -n: nothing is deleted
	}
	path := leadingOperands(c, 5)
	if sev, ok := storageDelete(c, c.Row); ok {
		return sev // aws s3 rm, gsutil rb, …
	}
	switch c.Row {
	case "aws":
		if len(path) < 2 {
			return Allow
		}
		svc, op := path[0], path[1]
		if awsDataOps()[svc+" "+op] {
			return Hold
		}
		if svc == "secretsmanager" && op == "delete-secret" && c.Flag("force-delete") {
			return Hold
		}
		for _, p := range []string{"delete-", "terminate-", "remove-", "deregister-", "purge-", "schedule-key-deletion"} {
			if strings.HasPrefix(op, p) {
				return Warn
			}
		}
	case "gcloud":
		for i, s := range path {
			if s == "alpha" || s == "beta" {
				continue
			}
			if s == "rm" && i > 0 && path[i-1] == "storage" {
				sev, _ := storageDelete(c, "gcloud storage rm")
				return sev
			}
			if s != "delete" && s != "destroy" {
				continue
			}
			for _, g := range path[:i] {
				if gcloudDataGroups()[g] {
					return Hold
				}
			}
			return Warn
		}
	case "az":
		for i, s := range path[:min(len(path), 4)] {
			if s == "delete" || s == "purge" || s == "delete-batch" {
				if i > 0 && azDataGroups()[path[0]] {
					return Hold
				}
				return Warn
			}
		}
	case "doctl":
		for i, s := range path[:min(len(path), 4)] {
			if s == "delete" || s == "rm" || s == "d" {
				for _, g := range path[:i] {
					if g == "droplet" || g == "databases" || g == "db" || g == "cluster" || g == "volume" {
						return Hold
					}
				}
				return Warn
			}
		}
	case "rclone":
		if c.Flag("interactive") {
			return Allow
		}
		fallthrough
	case "s3cmd", "mc":
		if sev, ok := storageDelete(c, c.Row+" "+first(path)); ok {
			return sev
		}
	case "hcloud":
		if len(path) >= 2 && path[1] == "delete" {
			if path[0] == "server" || path[0] == "volume" {
				return Hold
			}
			return Warn
		}
	}
	return Allow
}

// storageDeletes are the object stores' deletes, by row and subcommand:
// the severity of each, and the severity it has when given every flag
// meaning in with (a recursive or forced delete takes a bucket's
// contents or the bucket itself).
var storageDeletes = []struct {
	cmd     string
	sev     Severity
	with    string
	withSev Severity
}{
	{"aws s3 rm", Warn, "recursive", Hold},
	{"aws s3 rb", Warn, "force", Hold},
	{"aws s3 sync", Allow, "delete", Warn},
	{"gcloud storage rm", Warn, "recursive", Hold},
	{"gsutil rm", Warn, "recursive", Hold},
	{"gsutil rb", Hold, "", Hold},
	{"s3cmd del", Warn, "recursive", Hold},
	{"s3cmd rm", Warn, "recursive", Hold},
	{"s3cmd rb", Hold, "", Hold},
	{"mc rm", Warn, "recursive force", Hold},
	{"mc rb", Hold, "", Hold},
	{"rclone purge", Hold, "", Hold},
	{"rclone delete", Warn, "", Warn},
	{"rclone rmdirs", Warn, "", Warn},
	{"rclone sync", Warn, "", Warn}, // deletes what the source lacks in the destination
}

// storageDelete returns the severity of an object store's delete cmd
// (row and subcommand), and whether cmd is one.
func storageDelete(c *parse.Command, cmd string) (Severity, bool) {
	for _, d := range storageDeletes {
		if d.cmd != cmd {
			continue
		}
		if d.with == "" {
			return d.sev, true
		}
		for _, m := range strings.Fields(d.with) {
			if !c.Flag(m) {
				return d.sev, true
			}
		}
		return d.withSev, true
	}
	return Allow, false
}

// ghPath reports whether gh's (or glab's, which spells its commands
// the same) subcommand path is group then command.
func ghPath(c *parse.Command, group, command string) bool {
	path := leadingOperands(c, 2)
	return (c.Row == "gh" || c.Row == "glab") && len(path) == 2 && path[0] == group && path[1] == command
}

// ghRepoDanger reports gh repo delete, a visibility change to public, and
// the REST call that deletes a repository.
func ghRepoDanger(_ *Ctx, c *parse.Command) bool {
	if c.Row != "gh" && c.Row != "glab" {
		return false
	}
	if ghPath(c, "repo", "delete") {
		return true
	}
	if ghPath(c, "repo", "edit") {
		for _, w := range c.OptionValues("--visibility") {
			if w.Value == "public" {
				return true
			}
		}
		return false
	}
	for _, parts := range ghAPIDeletes(c) {
		if len(parts) == 3 && parts[0] == "repos" {
			return true
		}
	}
	return false
}

// ghAPIDeletes returns the paths, split at /, that gh api -X DELETE names.
func ghAPIDeletes(c *parse.Command) [][]string {
	if c.Row != "gh" || first(leadingOperands(c, 1)) != "api" {
		return nil
	}
	del := false
	for _, m := range c.OptionValues("-X") {
		del = del || strings.EqualFold(m.Value, "DELETE")
	}
	if !del {
		return nil
	}
	var out [][]string
	for _, op := range c.Operands(parse.RoleData)[1:] {
		out = append(out, strings.Split(strings.Trim(op.Value, "/"), "/"))
	}
	return out
}

// ghRefDelete reports gh api -X DELETE of a branch or tag
// (repos/O/R/git/refs/…) or of a branch's protection.
func ghRefDelete(_ *Ctx, c *parse.Command) bool {
	for _, p := range ghAPIDeletes(c) {
		if len(p) >= 6 && p[0] == "repos" && p[3] == "git" && p[4] == "refs" ||
			len(p) >= 6 && p[0] == "repos" && p[3] == "branches" && p[len(p)-1] == "protection" {
			return true
		}
	}
	return false
}

// dockerCleanup classifies docker cleanup: Hold for pruning everything
// or volumes, Warn for force-removing run-time-chosen objects or
// deleting volumes.
func dockerCleanup(c *parse.Command) Severity {
	dynamicOperand := func() bool {
		for _, op := range c.Operands(parse.RoleData) {
			if op.Dynamic {
				return true
			}
		}
		return false
	}
	switch c.Row {
	case "docker compose down", "docker-compose down":
		if c.Flag("volumes") {
			return Warn
		}
	case "docker system prune":
		if c.Flag("all") || c.Flag("volumes") {
			return Hold
		}
	case "docker system reset":
		return Hold
	case "docker volume prune":
		return Hold
	case "docker volume rm":
		// Volumes chosen at run time ($(docker volume ls -q)) are
		// every volume: a prune that does not even spare the ones
		// no container uses now, and volumes are where the data is.
		if dynamicOperand() {
			return Hold
		}
		return Warn
	case "docker rm", "docker rmi", "docker container rm", "docker image rm":
		if c.Flag("force") && dynamicOperand() || c.Flag("volumes") {
			return Warn
		}
	}
	return Allow
}

// paasAction classifies hosting platform commands.
func paasAction(c *parse.Command) Severity {
	path := leadingOperands(c, 2)
	sub := first(path)
	s := ""
	if len(path) > 1 {
		s = path[1]
	}
	switch c.Row {
	case "heroku":
		switch sub {
		case "apps:destroy", "destroy", "pg:reset", "addons:destroy", "apps:delete":
			return Hold
		}
	case "fly":
		if (sub == "apps" || sub == "volumes" || sub == "postgres" || sub == "vol" || sub == "app") && (s == "destroy" || s == "delete" || s == "remove") || sub == "destroy" {
			return Hold
		}
	case "netlify":
		if sub == "sites:delete" {
			return Hold
		}
	case "firebase":
		switch sub {
		case "firestore:delete", "database:remove", "projects:delete":
			return Hold
		case "hosting:disable", "functions:delete":
			return Warn
		}
	case "supabase":
		if sub == "projects" && s == "delete" {
			return Hold
		}
	case "vercel":
		if sub == "remove" || sub == "rm" {
			return Warn
		}
	case "railway":
		if sub == "down" {
			return Warn
		}
		if sub == "delete" {
			return Hold
		}
	}
	return Allow
}
